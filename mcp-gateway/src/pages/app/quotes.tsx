/**
 * Books → Quotes (`/books/{dataset}/quotes`): the company's quotes (Offerten) with their status,
 * and what people do with one: record that the customer accepted or declined it, and turn it
 * into a draft invoice, which then waits on the workstation. The ledger applies every rule
 * (docs/invoices.md "Quotes"); texts come from the message catalogue in the language the
 * browser asks for.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { languageFromAcceptLanguage, translatorFor, type MessageKey } from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, refusalStatus, seeOther } from './access.tsx';
import { ColumnHeads, Csrf, NAV, numeric, renderPage, swissAmount } from './ui.tsx';

const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.path('d') === '/books/d/quotes')!;
const ID = /^[1-9]\d{0,15}$/;

interface QuoteRow {
  id: number;
  number: string;
  status: 'draft' | 'sent' | 'accepted' | 'declined' | 'expired' | 'invoiced';
  name?: string;
  invDate: string;
  valid_until: string;
  currency: string;
  grossAmount: number;
  invoice_id: number | null;
}

const translator = (ctx: Context) => translatorFor(languageFromAcceptLanguage(ctx.get('Accept-Language')));

export function quotesPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(ctx, 'Quotes', 'Quotes need the permission to read customer documents.', ENTRY.allowed);

  async function show(ctx: Context, page: CompanyPage, status: number, top: unknown): Promise<void> {
    const t = translator(ctx);
    const rows = await listOf<QuoteRow>(page, '/arap/quotes/customer?limit=200');
    const base = ENTRY.path(page.company.dataset);
    const action = (q: QuoteRow, what: string, label: MessageKey) => (
      <form method="post" action={`${base}/${q.id}/${what}`} class="inline">
        <Csrf token={page.csrf} />
        <button type="submit" data-action={what}>
          {t(label)}
        </button>
      </form>
    );
    await renderPage(
      ctx,
      status,
      { title: t('sales.quotes'), ...page, current: base },
      <>
        {top}
        {rows.length === 0 ? (
          <p id="no-quotes">{t('sales.none')}</p>
        ) : (
          <div class="table-wrap">
            <table id="quotes">
              <ColumnHeads
                columns={[
                  t('sales.number'),
                  t('sales.customer'),
                  t('document.date'),
                  t('document.validUntil'),
                  numeric(t('sales.amount')),
                  t('sales.status'),
                  '',
                ]}
              />
              <tbody>
                {rows.map((q) => (
                  <tr data-quote={q.number}>
                    <td>{q.number}</td>
                    <td>{q.name ?? ''}</td>
                    <td>{q.invDate}</td>
                    <td>{q.valid_until}</td>
                    <td class="num">
                      {q.currency} {swissAmount(q.grossAmount)}
                    </td>
                    <td data-status={q.status}>{t(`sales.status.${q.status}`)}</td>
                    <td>
                      {q.status === 'draft' || q.status === 'sent'
                        ? action(q, 'accepted', 'sales.status.accepted')
                        : null}
                      {q.status === 'draft' || q.status === 'sent' || q.status === 'expired'
                        ? action(q, 'declined', 'sales.status.declined')
                        : null}
                      {q.status === 'draft' || q.status === 'sent' || q.status === 'accepted'
                        ? action(q, 'invoice', 'sales.convert')
                        : null}
                      {q.invoice_id !== null ? (
                        <a href={`/books/${page.company.dataset}/workstation/customer/${q.invoice_id}`}>
                          {t('sales.invoice')}
                        </a>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>,
    );
  }

  router.get('/books/:dataset/quotes', async (ctx) => {
    const page = await open(ctx);
    if (page) await show(ctx, page, 200, null);
  });

  router.post('/books/:dataset/quotes/:id/:action', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    const what = String(ctx.params.action);
    if (!ID.test(id) || !['accepted', 'declined', 'invoice'].includes(what)) {
      ctx.status = 404;
      return;
    }
    const answer =
      what === 'invoice'
        ? await page.call('POST', `/arap/quote/customer/${id}/invoice`, {})
        : await page.call('POST', `/arap/quote/customer/${id}/status`, { status: what });
    if (answer.status === 201) {
      const invoiceId = (answer.body as { id: number }).id;
      return seeOther(ctx, `/books/${page.company.dataset}/workstation/customer/${invoiceId}`);
    }
    if (answer.status === 200) return seeOther(ctx, ENTRY.path(page.company.dataset));
    await show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />);
  });
}
