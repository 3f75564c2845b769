/**
 * Books → Inbox (`/books/{dataset}/inbox`): uploaded bills with their extraction state; an
 * entry's page shows the document beside the bill proposed from its Swiss QR-bill, with
 * "Book as draft" (the draft is then on the workstation) and "Dismiss".
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { roleHas } from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { LedgerRefusal, listOf, readOr404, refusalStatus, seeOther } from './access.tsx';
import { FilePreview, sendFileOr404 } from './files.tsx';
import { ColumnHeads, Csrf, NAV, Notice, numeric, renderPage, swissAmount, when } from './ui.tsx';

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

const TITLE = 'Books → Inbox';
const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.label === 'Inbox')!;
const ID = /^[1-9]\d{0,15}$/;

const STATE: Record<InboxEntry['status'], string> = {
  new: 'Waiting to be read',
  extracted: 'QR-bill read: bill proposed',
  failed: 'Nothing could be read',
  booked: 'Booked as a draft',
  discarded: 'Dismissed',
};

const NOTICES: Record<string, string> = { discarded: 'The entry is dismissed; its file stays among the documents.' };

export function inboxPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, TITLE, 'Every member reads the inbox.', ENTRY.allowed);
  const listProps = (page: CompanyPage) => ({ title: TITLE, ...page, current: ENTRY.path(page.company.dataset) });

  async function entryOf(ctx: Context, page: CompanyPage): Promise<InboxEntry | undefined> {
    const id = String(ctx.params.id);
    const read = ID.test(id) ? `/documents/inbox/${id}` : undefined;
    return (await readOr404(ctx, page, listProps(page), read, 'No such inbox entry.')) as InboxEntry | undefined;
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
      { title: `Inbox: ${e.name}`, ...page, current: ENTRY.path(page.company.dataset) },
      <>
        {top}
        <p>
          <a href={ENTRY.path(page.company.dataset)}>← Inbox</a>
        </p>
        <p>
          State: <strong id="entry-state">{STATE[e.status]}</strong>
          {e.reason ? ` (${e.reason})` : ''}
        </p>
        <div class="side-by-side">
          <section aria-labelledby="document-heading">
            <h2 id="document-heading">Document</h2>
            <FilePreview
              file={{ id: e.document_id, name: e.name, mediaType: e.media_type, size: e.size }}
              href={`${base}/file`}
            />
          </section>
          <section aria-labelledby="proposal-heading">
            <h2 id="proposal-heading">Proposed bill</h2>
            {x && bill ? (
              <>
                <dl id="proposal">
                  <dt>Vendor</dt>
                  <dd>
                    {x.vendor
                      ? `${x.vendor.name} (matched by ${x.vendor.matched_by})`
                      : x.proposal.creditor_is_company
                        ? `none: the creditor ${x.creditor.name} is this company itself (its own invoice, not a bill)`
                        : `${x.proposal.new_vendor?.name ?? x.creditor.name} (new vendor)`}
                  </dd>
                  <dt>IBAN</dt>
                  <dd>
                    <code>{x.iban}</code>
                  </dd>
                  <dt>Amount</dt>
                  <dd id="proposed-amount">
                    {x.amount === undefined ? 'open' : `${x.currency} ${swissAmount(x.amount)}`}
                  </dd>
                  <dt>Reference</dt>
                  <dd>{x.reference ?? '—'}</dd>
                  <dt>Their document number</dt>
                  <dd>{bill.documentNumber ?? '—'}</dd>
                  <dt>Date</dt>
                  <dd>{bill.invDate}</dd>
                  <dt>Due</dt>
                  <dd>{bill.dueDate ?? '—'}</dd>
                </dl>
                {bill.lines?.length ? (
                  <table id="proposed-lines">
                    <caption>Lines ({bill.taxincluded ? 'amounts include tax' : 'amounts without tax'})</caption>
                    <ColumnHeads columns={['Account', 'Tax account', numeric('Amount')]} />
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
                  <p>
                    No lines: the QR-bill leaves the amount open. Book it and complete the draft on the workstation.
                  </p>
                )}
              </>
            ) : (
              <p>
                {e.status === 'new'
                  ? 'The file is being read; reload the page in a moment.'
                  : 'No Swiss QR-bill was found on this file.'}
              </p>
            )}
            {e.transaction_id ? (
              <p>
                <a href={`${NAV[0]!.entries[0]!.path(page.company.dataset)}/vendor/${e.transaction_id}`}>
                  Open the draft bill on the workstation
                </a>
              </p>
            ) : null}
            {mayBook ? (
              <form method="post" action={`${base}/book`}>
                <Csrf token={page.csrf} />
                <p>
                  <button type="submit">Book as draft</button>
                </p>
              </form>
            ) : null}
            {mayDismiss ? (
              <form method="post" action={`${base}/dismiss`}>
                <Csrf token={page.csrf} />
                <p>
                  <button type="submit" class="danger">
                    Dismiss
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
    const text = NOTICES[String(ctx.query.notice ?? '')];
    await renderPage(
      ctx,
      200,
      { title: TITLE, ...page, current: base },
      <>
        {text ? <Notice kind="ok">{text}</Notice> : null}
        <p class="hint">
          Bills uploaded as PDF or image (through the REST API or an assistant). A Swiss QR-bill on them is read and
          turned into a proposed bill.
        </p>
        {rows.length ? (
          <div class="table-wrap">
            <table id="inbox">
              <caption>Inbox, newest first</caption>
              <ColumnHeads columns={['File', 'Uploaded', 'State', 'Creditor', numeric('Amount')]} />
              <tbody>
                {rows.map((e) => (
                  <tr data-entry={e.id} data-status={e.status}>
                    <td>
                      <a href={`${base}/${e.id}`}>{e.name}</a>
                    </td>
                    <td>{when(e.created_at)}</td>
                    <td>{STATE[e.status]}</td>
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
          <p id="empty-inbox">The inbox is empty.</p>
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
