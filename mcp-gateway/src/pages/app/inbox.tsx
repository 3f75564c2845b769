/**
 * Books → Inbox (`/books/{dataset}/inbox`): uploaded bills with their extraction state; an
 * entry's page shows the document beside the bill proposed from its Swiss QR-bill, with
 * "Book as draft" (the draft is then on the workstation) and "Dismiss".
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { formatIban, roleHas } from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, readOr404, refusalStatus, seeOther } from './access.tsx';
import { FilePreview, sendFileOr404 } from './files.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, day, NAV, Notice, navEntry, numeric, renderPage, swissAmount, when } from './ui.tsx';

interface ProposedBill {
  invDate: string;
  dueDate?: string;
  curr: string;
  documentNumber?: string;
  description?: string;
  taxincluded: boolean;
  lines?: { account: string; amount: number; taxAccount?: string; description?: string }[];
  paymentReference?: string;
}

interface InboxEntry {
  id: number;
  status: 'new' | 'extracted' | 'failed' | 'booked' | 'discarded';
  document_id: number;
  name: string;
  media_type: string;
  size: number;
  created_at: string;
  reason?: string;
  transaction_id?: number;
  extracted?: {
    creditor: { name: string; street?: string; house_number?: string; zip?: string; city?: string; country?: string };
    iban: string;
    amount?: number;
    currency: string;
    reference?: string;
    vendor: { id: number; name: string; matched_by: string } | null;
    proposal: {
      bill: ProposedBill;
      new_vendor?: { name: string };
      account_source: string;
      /** the creditor is the company itself: its own invoice, no vendor proposed */
      creditor_is_company?: boolean;
    };
  };
}

const title = () => tr('app.inbox.title');
const ENTRY = navEntry('inbox');
const ID = /^[1-9]\d{0,15}$/;

const stateText = (status: InboxEntry['status']) => tr(`app.inbox.state.${status}`);

export function inboxPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.inbox.why'), ENTRY.allowed);
  const listProps = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });

  async function entryOf(ctx: Context, page: CompanyPage): Promise<InboxEntry | undefined> {
    const id = String(ctx.params.id);
    const read = ID.test(id) ? `/documents/inbox/${id}` : undefined;
    return (await readOr404(ctx, page, listProps(page), read, tr('app.inbox.noSuch'))) as InboxEntry | undefined;
  }

  async function showEntry(
    ctx: Context,
    page: CompanyPage,
    e: InboxEntry,
    status: number,
    top: unknown,
  ): Promise<void> {
    const base = `${ENTRY.path(page.company.dataset)}/${e.id}`;
    const x = e.extracted;
    const bill = x?.proposal.bill;
    const mayBook = e.status === 'extracted' && roleHas(page.company.role, 'vendors.postings.vendor_transaction');
    const mayDismiss =
      (e.status === 'new' || e.status === 'extracted' || e.status === 'failed') &&
      roleHas(page.company.role, 'documents.upload');
    await renderPage(
      ctx,
      status,
      { title: tr('app.inbox.entryTitle', { name: e.name }), ...page, current: ENTRY.path(page.company.dataset) },
      <>
        {top}
        <p>
          <a href={ENTRY.path(page.company.dataset)}>{tr('app.inbox.back')}</a>
        </p>
        <p>
          {tr('app.inbox.state')} <strong id="entry-state">{stateText(e.status)}</strong>
          {e.reason ? ` (${e.reason})` : ''}
        </p>
        <div class="side-by-side">
          <section aria-labelledby="document-heading">
            <h2 id="document-heading">{tr('app.inbox.document')}</h2>
            <FilePreview
              file={{ id: e.document_id, name: e.name, mediaType: e.media_type, size: e.size }}
              href={`${base}/file`}
            />
          </section>
          <section aria-labelledby="proposal-heading">
            <h2 id="proposal-heading">{tr('app.inbox.proposed')}</h2>
            {x && bill ? (
              <>
                <dl id="proposal">
                  <dt>{tr('app.inbox.vendor')}</dt>
                  <dd>
                    {x.vendor
                      ? tr('app.inbox.matchedBy', { name: x.vendor.name, how: x.vendor.matched_by })
                      : x.proposal.creditor_is_company
                        ? tr('app.inbox.ownInvoice', { name: x.creditor.name })
                        : tr('app.inbox.newVendor', { name: x.proposal.new_vendor?.name ?? x.creditor.name })}
                  </dd>
                  <dt>IBAN</dt>
                  <dd>
                    <code>{formatIban(x.iban)}</code>
                  </dd>
                  <dt>{tr('app.common.amount')}</dt>
                  <dd id="proposed-amount">
                    {x.amount === undefined ? tr('app.inbox.open') : `${x.currency} ${swissAmount(x.amount)}`}
                  </dd>
                  <dt>{tr('app.inbox.reference')}</dt>
                  <dd>{x.reference ?? '—'}</dd>
                  <dt>{tr('app.workstation.theirNumber')}</dt>
                  <dd>{bill.documentNumber ?? '—'}</dd>
                  <dt>{tr('app.common.date')}</dt>
                  <dd>{day(bill.invDate)}</dd>
                  <dt>{tr('app.common.due')}</dt>
                  <dd>{bill.dueDate ? day(bill.dueDate) : '—'}</dd>
                </dl>
                {bill.lines?.length ? (
                  <table id="proposed-lines">
                    <caption>
                      {tr('app.inbox.proposedLines', {
                        tax: tr(bill.taxincluded ? 'app.common.inclTax' : 'app.common.exclTax'),
                      })}
                    </caption>
                    <ColumnHeads
                      columns={[
                        tr('app.common.account'),
                        tr('app.common.taxAccount'),
                        numeric(tr('app.common.amount')),
                      ]}
                    />
                    <tbody>
                      {bill.lines.map((l) => (
                        <tr>
                          <td>{l.account}</td>
                          <td>{l.taxAccount ?? '—'}</td>
                          <td class="num">{swissAmount(l.amount)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p>{tr('app.inbox.noLines')}</p>
                )}
              </>
            ) : (
              <p>{e.status === 'new' ? tr('app.inbox.reading') : tr('app.inbox.noQr')}</p>
            )}
            {e.transaction_id ? (
              <p>
                <a href={`${NAV[0]!.entries[0]!.path(page.company.dataset)}/vendor/${e.transaction_id}`}>
                  {tr('app.inbox.openDraft')}
                </a>
              </p>
            ) : null}
            {mayBook ? (
              <form method="post" action={`${base}/book`}>
                <Csrf token={page.csrf} />
                <p>
                  <button type="submit">{tr('app.inbox.book')}</button>
                </p>
              </form>
            ) : null}
            {mayDismiss ? (
              <form method="post" action={`${base}/dismiss`}>
                <Csrf token={page.csrf} />
                <p>
                  <button type="submit" class="danger">
                    {tr('app.inbox.dismiss')}
                  </button>
                </p>
              </form>
            ) : null}
          </section>
        </div>
      </>,
    );
  }

  router.get('/books/:dataset/inbox', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const rows = await listOf<InboxEntry>(page, '/documents/inbox?limit=200');
    const base = ENTRY.path(page.company.dataset);
    await renderPage(
      ctx,
      200,
      { title: title(), ...page, current: base },
      <>
        {ctx.query.notice === 'discarded' ? <Notice kind="ok">{tr('app.inbox.discarded')}</Notice> : null}
        <p class="hint">{tr('app.inbox.hint')}</p>
        {rows.length ? (
          <div class="table-wrap">
            <table id="inbox">
              <caption>{tr('app.inbox.caption')}</caption>
              <ColumnHeads
                columns={[
                  tr('app.inbox.file'),
                  tr('app.inbox.uploaded'),
                  tr('app.common.status'),
                  tr('app.inbox.creditor'),
                  numeric(tr('app.common.amount')),
                ]}
              />
              <tbody>
                {rows.map((e) => (
                  <tr data-entry={e.id} data-status={e.status}>
                    <td>
                      <a href={`${base}/${e.id}`}>{e.name}</a>
                    </td>
                    <td>{when(e.created_at)}</td>
                    <td>{stateText(e.status)}</td>
                    <td>{e.extracted?.creditor.name ?? ''}</td>
                    <td class="num">
                      {e.extracted?.amount === undefined
                        ? ''
                        : `${e.extracted.currency} ${swissAmount(e.extracted.amount)}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="empty-inbox">{tr('app.inbox.empty')}</p>
        )}
      </>,
    );
  });

  router.get('/books/:dataset/inbox/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const e = await entryOf(ctx, page);
    if (e) await showEntry(ctx, page, e, 200, null);
  });

  router.get('/books/:dataset/inbox/:id/file', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const e = await entryOf(ctx, page);
    if (!e) return;
    const answer = await page.call('GET', `/documents/${e.document_id}/content`);
    await sendFileOr404(ctx, listProps(page), answer.file && { ...answer.file, name: e.name }, `inbox-${e.id}`);
  });

  router.post('/books/:dataset/inbox/:id/book', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const e = await entryOf(ctx, page);
    if (!e) return;
    const answer = await page.call('POST', `/documents/inbox/${e.id}/book`, {});
    if (answer.status !== 201) return showEntry(ctx, page, e, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    const booked = answer.body as { transaction_id: number };
    seeOther(ctx, `${NAV[0]!.entries[0]!.path(page.company.dataset)}/vendor/${booked.transaction_id}?notice=booked`);
  });

  router.post('/books/:dataset/inbox/:id/dismiss', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const e = await entryOf(ctx, page);
    if (!e) return;
    const answer = await page.call('DELETE', `/documents/inbox/${e.id}`);
    if (answer.status !== 204) return showEntry(ctx, page, e, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=discarded`);
  });
}
