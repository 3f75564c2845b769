/**
 * Books → Dunning (`/books/{dataset}/dunning`): the dunning proposal of a day (the ledger's dry
 * run: which overdue invoices reach which level, with the fee) and the button that sends it;
 * then the runs that were sent. The ledger decides levels, books fees and sends the reminders
 * (docs/invoices.md "Dunning runs"); texts come from the message catalogue in the browser's
 * language.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { languageFromAcceptLanguage, translatorFor } from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, refusalStatus, seeOther } from './access.tsx';
import { ColumnHeads, Csrf, NAV, Notice, numeric, renderPage, swissAmount } from './ui.tsx';
import { bodyFields } from '../../http/bodyParser.ts';

const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.path('d') === '/books/d/dunning')!;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Item {
  invoice_id: number;
  invNumber?: string;
  name?: string;
  level: number;
  fee: number;
  open: number;
  currency?: string;
}
interface Run {
  id: number;
  date: string;
  count: number;
}

export function dunningPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(ctx, 'Dunning', 'Dunning runs need the permission to record customer receipts.', ENTRY.allowed);

  async function show(ctx: Context, page: CompanyPage, date: string, status: number, top: unknown) {
    const t = translatorFor(languageFromAcceptLanguage(ctx.get('Accept-Language')));
    const base = ENTRY.path(page.company.dataset);
    const proposal = await page.call('POST', '/arap/dunning/run', { date, dry_run: true });
    const items = proposal.status === 200 ? ((proposal.body as { items: Item[] }).items ?? []) : [];
    const runs = await listOf<Run>(page, '/arap/dunning/runs?limit=20');
    await renderPage(
      ctx,
      status,
      { title: t('sales.dunning'), ...page, current: base },
      <>
        {top}
        {proposal.status === 200 ? null : <LedgerRefusal answer={proposal} />}
        <form method="get" id="dunning-date">
          <label for="date">{t('sales.dunningDate')}</label>
          <input type="date" id="date" name="date" value={date} />
          <button type="submit">{t('sales.dunningPropose')}</button>
        </form>
        {items.length === 0 ? (
          <p id="no-reminders">{t('sales.none')}</p>
        ) : (
          <>
            <div class="table-wrap">
              <table id="proposal">
                <ColumnHeads
                  columns={[
                    t('sales.invoice'),
                    t('sales.customer'),
                    t('sales.level'),
                    numeric(t('sales.open')),
                    numeric(t('sales.fee')),
                  ]}
                />
                <tbody>
                  {items.map((i) => (
                    <tr data-invoice={i.invNumber}>
                      <td>{i.invNumber}</td>
                      <td>{i.name}</td>
                      <td>{t(`document.reminder.${i.level as 1 | 2 | 3}`)}</td>
                      <td class="num">
                        {i.currency} {swissAmount(i.open)}
                      </td>
                      <td class="num">{swissAmount(i.fee)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <form method="post" action={base} id="send">
              <Csrf token={page.csrf} />
              <input type="hidden" name="date" value={date} />
              <button type="submit">{t('sales.dunningSend')}</button>
            </form>
          </>
        )}
        {runs.length ? (
          <table id="runs">
            <caption>{t('sales.runs')}</caption>
            <ColumnHeads columns={[t('document.date'), numeric(t('sales.dunningSend'))]} />
            <tbody>
              {runs.map((r) => (
                <tr>
                  <td>{r.date}</td>
                  <td class="num">{r.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </>,
    );
  }

  router.get('/books/:dataset/dunning', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const asked = String(ctx.query.date ?? '');
    await show(ctx, page, DATE.test(asked) ? asked : new Date().toISOString().slice(0, 10), 200, null);
  });

  router.post('/books/:dataset/dunning', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const t = translatorFor(languageFromAcceptLanguage(ctx.get('Accept-Language')));
    const date = String(bodyFields(ctx).date ?? '');
    if (!DATE.test(date)) return seeOther(ctx, ENTRY.path(page.company.dataset));
    const answer = await page.call('POST', '/arap/dunning/run', { date, dry_run: false });
    if (answer.status !== 200) return show(ctx, page, date, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    const sent = (answer.body as { items: Item[] }).items.length;
    await show(
      ctx,
      page,
      date,
      200,
      <Notice kind="ok" id="sent">
        {t('sales.dunningSent', { count: sent })}
      </Notice>,
    );
  });
}
