/**
 * Books → Workstation (`/books/{dataset}/workstation`): every draft awaiting review with who
 * prepared it (API key, AI connection, app), and a draft's own page with its lines, tax,
 * totals and attached files (images and PDFs previewed from the gateway's own origin). A draft
 * of either kind — AR/AP transaction (lines) or invoice (items) — can be approved and posted
 * (the ledger applies the approval limit: `amount_exceeded` is shown and the draft stays),
 * changed (description, dates; lines or items added, changed, removed, their tax chosen:
 * draftForm.tsx) or deleted. Journal-entry drafts have their own page (journal.tsx).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { roleHas, type Permission } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { chartAccounts, LedgerRefusal, listOf, readOr404, refusalStatus, refusedForm, seeOther } from './access.tsx';
import {
  type Draft,
  ItemRows,
  invoiceBody,
  LineRows,
  parseItems,
  parseLines,
  type TaxCode,
  taxChoices,
  transactionBody,
  type Vc,
} from './draftForm.tsx';
import * as DraftPage from './draftPage.tsx';
import { sendFileOr404 } from './files.tsx';
import { journalPages } from './journal.tsx';
import { tr } from './language.ts';
import {
  AccountList,
  accountName,
  ColumnHeads,
  day,
  Field,
  Notice,
  navEntry,
  numeric,
  type Refused,
  renderPage,
  shown,
  statusName,
  swissAmount,
  when,
} from './ui.tsx';

interface WorkstationRow {
  id: number;
  /** absent on journal entries (they have no side) */
  vc?: Vc;
  kind: 'transaction' | 'invoice' | 'journal';
  invNumber: string;
  documentNumber?: string;
  /** the party; absent on journal entries */
  name?: string;
  invDate: string;
  currency: string;
  grossAmount: number;
  createdAt: string;
  createdBy?: { email: string | null; via_text: string };
}

const title = () => tr('app.workstation.title');
const ENTRY = navEntry('workstation');
const ID = /^[1-9]\d{0,15}$/;

const approvePermission = (vc: Vc): Permission =>
  vc === 'vendor' ? 'vendors.postings.approve' : 'customers.postings.approve';
const writePermission = (vc: Vc, kind: Draft['kind']): Permission =>
  kind === 'invoice'
    ? vc === 'vendor'
      ? 'vendors.postings.vendor_invoice'
      : 'customers.postings.sales_invoice'
    : vc === 'vendor'
      ? 'vendors.postings.vendor_transaction'
      : 'customers.postings.customer_transaction';
const sideLabel = (vc: Vc, kind: Draft['kind']) =>
  tr(
    vc === 'vendor'
      ? kind === 'invoice'
        ? 'app.workstation.vendorInvoice'
        : 'app.workstation.bill'
      : kind === 'invoice'
        ? 'app.workstation.salesInvoice'
        : 'app.workstation.customerTransaction',
  );

/** What a workstation row is: its side's document or a journal entry. */
const kindLabel = (r: WorkstationRow) =>
  r.vc && r.kind !== 'journal' ? sideLabel(r.vc, r.kind) : tr('app.workstation.journalEntry');

/** The REST path of a draft by its kind (transactions and invoices have their own endpoints). */
const restPath = (d: { kind: Draft['kind']; vc: Vc; id: number }) => `/arap/${d.kind}/${d.vc}/${d.id}`;

/** The complete write body of a draft of either kind, unchanged (approving saves it as it is). */
const wholeBody = (d: Draft) => (d.kind === 'invoice' ? invoiceBody(d) : transactionBody(d));

export function workstationPages(router: Router, access: ReturnType<typeof accessOf>): void {
  // before the AR/AP routes: `/workstation/journal/{id}` would match `/workstation/{vc}/{id}` too
  journalPages(router, access);
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.workstation.why'), ENTRY.allowed);
  const listProps = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });

  /** The draft of the path, or undefined after a 404 page. */
  async function draftOf(ctx: Context, page: CompanyPage): Promise<Draft | undefined> {
    const vc = String(ctx.params.vc);
    const id = String(ctx.params.id);
    const path = (vc === 'vendor' || vc === 'customer') && ID.test(id) ? `/arap/document/${vc}/${id}` : undefined;
    return (await readOr404(ctx, page, listProps(page), path, tr('app.workstation.noSuch'))) as Draft | undefined;
  }

  /** `refused`: a refused change, shown again as typed with its message at its field. */
  async function showDraft(
    ctx: Context,
    page: CompanyPage,
    d: Draft,
    status: number,
    top: unknown,
    refused?: Refused,
  ): Promise<void> {
    const base = `${ENTRY.path(page.company.dataset)}/${d.vc}/${d.id}`;
    const preparer = await DraftPage.preparedBy(page, `vc=${d.vc}&kind=${d.kind}`, d.id);
    const isDraft = d.status === 'draft';
    const mayApprove = isDraft && roleHas(page.company.role, approvePermission(d.vc));
    const mayWrite = isDraft && roleHas(page.company.role, writePermission(d.vc, d.kind));
    const [taxes, accounts] = await Promise.all([
      mayWrite ? page.call('GET', '/system/taxes') : undefined,
      chartAccounts(page),
    ]);
    const choices = taxChoices(
      taxes?.status === 200 ? (taxes.body as TaxCode[]) : [],
      d.invDate,
      [...(d.lines ?? []), ...(d.items ?? [])].map((l) => l.taxAccount),
    );
    const money = (n: number | undefined) => swissAmount(n);
    const taxNote = tr(d.taxincluded ? 'app.common.inclTax' : 'app.common.exclTax');
    await renderPage(
      ctx,
      status,
      { title: `${sideLabel(d.vc, d.kind)} ${d.invNumber}`, ...page, current: ENTRY.path(page.company.dataset) },
      <>
        {top}
        <DraftPage.AllDraftsLink href={ENTRY.path(page.company.dataset)} />
        <dl id="draft-header">
          <dt>{tr('app.common.status')}</dt>
          <dd id="draft-status">{statusName(d.status)}</dd>
          <dt>{tr('app.common.party')}</dt>
          <dd>{d.name}</dd>
          <dt>{tr('app.workstation.theirNumber')}</dt>
          <dd>{d.documentNumber || '—'}</dd>
          <dt>{tr('app.common.date')}</dt>
          <dd>{day(d.invDate)}</dd>
          <dt>{tr('app.common.due')}</dt>
          <dd>{d.dueDate ? day(d.dueDate) : '—'}</dd>
          <dt>{tr('app.common.description')}</dt>
          <dd>{d.description || '—'}</dd>
          <dt>{tr('app.workstation.preparedBy')}</dt>
          <dd id="prepared-by">{preparer}</dd>
        </dl>
        {d.lines ? (
          <div class="table-wrap">
            <table id="lines">
              <caption>{tr('app.workstation.lines', { tax: taxNote, currency: d.currency })}</caption>
              <ColumnHeads
                columns={[
                  tr('app.common.account'),
                  tr('app.common.description'),
                  numeric(tr('app.common.amount')),
                  tr('app.common.taxAccount'),
                  ...[tr('app.common.rate'), tr('app.common.tax'), tr('app.common.gross')].map(numeric),
                ]}
              />
              <tbody>
                {d.lines.map((l) => (
                  <tr>
                    <td>{accountName(accounts, l.account)}</td>
                    <td>{l.description ?? ''}</td>
                    <td class="num">{money(l.amount)}</td>
                    <td>{l.taxAccount ?? '—'}</td>
                    <td class="num">{l.taxRate === undefined ? '' : `${(l.taxRate * 100).toFixed(1)} %`}</td>
                    <td class="num">{money(l.taxAmount)}</td>
                    <td class="num">{money(l.gross)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {d.items ? (
          <div class="table-wrap">
            <table id="items">
              <caption>{tr('app.workstation.items', { tax: taxNote, currency: d.currency })}</caption>
              <ColumnHeads
                columns={[
                  tr('app.common.text'),
                  ...[tr('app.workstation.quantity'), tr('app.workstation.price'), tr('app.workstation.discount')].map(
                    numeric,
                  ),
                  tr('app.common.account'),
                  tr('app.common.taxAccount'),
                  ...[tr('app.common.amount'), tr('app.common.tax')].map(numeric),
                ]}
              />
              <tbody>
                {d.items.map((it) => (
                  <tr>
                    <td>{it.description ?? ''}</td>
                    <td class="num">
                      {it.quantity} {it.unit ?? ''}
                    </td>
                    <td class="num">{money(it.price)}</td>
                    <td class="num">{it.discount ? `${it.discount} %` : ''}</td>
                    <td>{accountName(accounts, it.account)}</td>
                    <td>{it.taxAccount ?? '—'}</td>
                    <td class="num">{money(it.amount)}</td>
                    <td class="num">{money(it.tax)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <table id="totals">
          <caption>{tr('app.workstation.totals', { currency: d.currency })}</caption>
          <tbody>
            <tr>
              <th scope="row">{tr('app.common.net')}</th>
              <td class="num">{money(d.netAmount)}</td>
            </tr>
            {(d.taxes ?? []).map((x) => (
              <tr>
                <th scope="row">
                  {tr('app.workstation.taxOf', {
                    account: x.taxAccount,
                    rate: `${(x.rate * 100).toFixed(1)} %`,
                    base: money(x.base),
                  })}
                </th>
                <td class="num">{money(x.amount)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{tr('app.common.total')}</th>
              <td class="num" id="gross">
                {money(d.grossAmount)}
              </td>
            </tr>
          </tbody>
        </table>
        <DraftPage.AttachedFiles files={d.files ?? []} href={(f) => `${base}/files/${f.id}?kind=${d.kind}`} />
        {mayApprove ? <DraftPage.ApproveForm action={`${base}/approve`} csrf={page.csrf} /> : null}
        {mayWrite ? (
          <DraftPage.ChangeForm
            action={`${base}/update`}
            csrf={page.csrf}
            description={shown(refused, 'description', d.description)}
          >
            <Field
              type="date"
              id="invDate"
              name="invDate"
              label={tr('app.common.date')}
              required
              value={shown(refused, 'invDate', d.invDate)}
              refused={refused}
            />
            <Field
              type="date"
              id="dueDate"
              name="dueDate"
              label={tr('app.common.dueDate')}
              value={shown(refused, 'dueDate', d.dueDate)}
              refused={refused}
            />
            <AccountList accounts={accounts} />
            {d.kind === 'invoice' ? (
              <ItemRows items={d.items ?? []} choices={choices} refused={refused} />
            ) : (
              <LineRows lines={d.lines ?? []} choices={choices} refused={refused} />
            )}
            <p class="hint">{tr('app.workstation.amountsHint')}</p>
          </DraftPage.ChangeForm>
        ) : null}
        {mayWrite ? <DraftPage.DeleteForm action={`${base}/delete?kind=${d.kind}`} csrf={page.csrf} /> : null}
      </>,
    );
  }

  router.get('/books/:dataset/workstation', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const rows = await listOf<WorkstationRow>(page, '/arap/workstation?limit=200');
    // attachments are not part of the list: each draft's read says them
    const files = await Promise.all(
      rows.map(async (r) => {
        const doc = await page.call('GET', r.vc ? `/arap/document/${r.vc}/${r.id}` : `/gl/transactions/${r.id}`);
        return doc.status === 200 ? ((doc.body as { files?: unknown[] }).files ?? []).length : 0;
      }),
    );
    const base = ENTRY.path(page.company.dataset);
    const notice =
      ctx.query.notice === 'posted' ? (
        <Notice kind="ok">{tr('app.workstation.posted')}</Notice>
      ) : ctx.query.notice === 'deleted' ? (
        <Notice kind="ok">{tr('app.workstation.deleted')}</Notice>
      ) : null;
    await renderPage(
      ctx,
      200,
      { title: title(), ...page, current: base },
      <>
        {notice}
        <p class="hint">{tr('app.workstation.hint')}</p>
        {rows.length ? (
          <div class="table-wrap">
            <table id="drafts">
              <caption>{tr('app.workstation.caption')}</caption>
              <ColumnHeads
                columns={[
                  tr('app.workstation.draft'),
                  tr('app.workstation.preparedBy'),
                  tr('app.common.date'),
                  tr('app.common.party'),
                  numeric(tr('app.common.amount')),
                  numeric(tr('app.common.files')),
                ]}
              />
              <tbody>
                {rows.map((r, i) => (
                  <tr data-draft={`${r.vc ?? 'journal'}-${r.id}`}>
                    <td>
                      <a href={`${base}/${r.vc ?? 'journal'}/${r.id}`}>
                        {kindLabel(r)} {r.invNumber}
                      </a>
                      {r.documentNumber ? (
                        <>
                          <br />
                          <small>{r.documentNumber}</small>
                        </>
                      ) : null}
                    </td>
                    <td>
                      {r.createdBy?.via_text ?? ''}
                      {r.createdBy?.email ? (
                        <>
                          <br />
                          <small>{r.createdBy.email}</small>
                        </>
                      ) : null}
                      <br />
                      <small>{when(r.createdAt)}</small>
                    </td>
                    <td>{day(r.invDate)}</td>
                    <td>{r.name ?? '—'}</td>
                    <td class="num">
                      {r.currency} {swissAmount(r.grossAmount)}
                    </td>
                    <td class="num">{files[i]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="no-drafts">{tr('app.workstation.none')}</p>
        )}
      </>,
    );
  });

  router.get('/books/:dataset/workstation/:vc/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await draftOf(ctx, page);
    if (!d) return;
    const notice =
      ctx.query.notice === 'saved'
        ? tr('app.workstation.saved')
        : ctx.query.notice === 'booked'
          ? tr('app.workstation.booked')
          : undefined;
    await showDraft(ctx, page, d, 200, notice ? <Notice kind="ok">{notice}</Notice> : null);
  });

  router.get('/books/:dataset/workstation/:vc/:id/files/:fileId', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const vc = String(ctx.params.vc);
    const kind = ctx.query.kind === 'invoice' ? 'invoice' : 'transaction';
    const [id, fileId] = [String(ctx.params.id), String(ctx.params.fileId)];
    const answer =
      (vc === 'vendor' || vc === 'customer') && ID.test(id) && ID.test(fileId)
        ? await page.call('GET', `/arap/${kind}/${vc}/${id}/files/${fileId}`)
        : undefined;
    await sendFileOr404(ctx, listProps(page), answer?.file, `file-${fileId}`);
  });

  router.post('/books/:dataset/workstation/:vc/:id/approve', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await draftOf(ctx, page);
    if (!d) return;
    const answer = await page.call('POST', `${restPath(d)}/approve`, { ...wholeBody(d), pending: '0' });
    if (answer.status !== 200) {
      const status = answer.status === 403 || answer.status === 422 ? answer.status : answer.status >= 500 ? 502 : 409;
      return showDraft(ctx, page, d, status, <DraftPage.Refusal answer={answer} stays />);
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=posted`);
  });

  router.post('/books/:dataset/workstation/:vc/:id/update', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await draftOf(ctx, page);
    if (!d) return;
    const f = bodyFields(ctx);
    const header = {
      description: String(f.description ?? '').trim(),
      invDate: String(f.invDate ?? ''),
      dueDate: String(f.dueDate ?? '') || undefined,
    };
    let body: ReturnType<typeof wholeBody> | undefined;
    let problem: { problem: string; field?: string } | undefined;
    if (d.kind === 'invoice') {
      const parsed = parseItems(f, d.items?.length ?? 0);
      if ('problem' in parsed) problem = parsed;
      else body = invoiceBody(d, { ...header, items: parsed.rows });
    } else {
      const parsed = parseLines(f, d.lines?.length ?? 0);
      if ('problem' in parsed) problem = parsed;
      else body = transactionBody(d, { ...header, lines: parsed.rows });
    }
    if (!body || problem) {
      const refused = { values: f, message: problem?.problem ?? '', field: problem?.field };
      return showDraft(ctx, page, d, 400, <DraftPage.NothingSaved problem={refused.message} />, refused);
    }
    const answer = await page.call('POST', restPath(d), body);
    if (answer.status !== 200) {
      const top = <LedgerRefusal answer={answer} />;
      return showDraft(ctx, page, d, refusalStatus(answer), top, refusedForm(f, answer));
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}/${d.vc}/${d.id}?notice=saved`);
  });

  router.post('/books/:dataset/workstation/:vc/:id/delete', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await draftOf(ctx, page);
    if (!d) return;
    const answer = await page.call('DELETE', restPath(d));
    if (answer.status !== 204) return showDraft(ctx, page, d, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=deleted`);
  });
}
