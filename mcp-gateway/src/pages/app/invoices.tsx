/**
 * Books → Invoices (`/books/{dataset}/invoices`, customer invoices) and Books → Bills
 * (`/books/{dataset}/bills`, vendor invoices): one page per side with the list (status filter,
 * search by party, number or the vendor's document number), a form for a new one (saved as a
 * draft or posted, invoiceForm.tsx), each document on its own page (`…/{id}`, invoicePage.tsx)
 * with its items, VAT and totals as the ledger computed them, its PDF, e-mail (customers), a
 * payment and the reversal; on the bills page a receipt (PDF or image) is uploaded into the
 * inbox. Everything through the ledger's REST contracts as the person (`/arap/invoice(s)/{vc}`,
 * `/arap/payment/{vc}`, `/arap/invoice/customer/{id}/email`, `/documents/inbox`).
 */
import { readFile } from 'node:fs/promises';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { type Permission, roleHas } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { LedgerAnswer } from '../../ledgerClient.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { chartAccounts, LedgerRefusal, listOf, readOr404, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { AgingTable, agingOf } from './aging.tsx';
import type { TaxCode, Vc } from './draftForm.tsx';
import { sendFileOr404 } from './files.tsx';
import {
  atFormRow,
  NewDocumentForm,
  newDocumentBody,
  type PartyChoice,
  type Service,
  type TotalsPreview,
} from './invoiceForm.tsx';
import { DocumentView, documentState, type InvoiceRead, STATUSES } from './invoicePage.tsx';
import { tr } from './language.ts';
import {
  AccountList,
  ColumnHeads,
  Csrf,
  day,
  Field,
  Notice,
  navEntry,
  numeric,
  type PageKey,
  type Refused,
  renderPage,
  swissAmount,
  withRowAdded,
} from './ui.tsx';

/** A row of GET /arap/invoices/{vc} (the fields the list shows). */
interface ListRow {
  id: number;
  name: string;
  invNumber: string;
  documentNumber?: string;
  invDate: string;
  dueDate?: string;
  currency: string;
  status: string;
  grossAmount: number;
  open: number;
  payment_status: string;
  reversalOf?: number | null;
}

interface Side {
  vc: Vc;
  key: PageKey & ('invoices' | 'bills');
  write: Permission;
}

const SIDES: Side[] = [
  { vc: 'customer', key: 'invoices', write: 'customers.postings.sales_invoice' },
  { vc: 'vendor', key: 'bills', write: 'vendors.postings.vendor_invoice' },
];
const ID = /^[1-9]\d{0,15}$/;
const today = () => new Date().toISOString().slice(0, 10);
/** A receipt upload: one file up to the ledger's file limit. */
const receiptUpload = koaBody({ multipart: true, formidable: { maxFileSize: 10 * 1024 * 1024, maxFiles: 1 } });

export function invoicesPages(router: Router, access: ReturnType<typeof accessOf>): void {
  for (const side of SIDES) sidePages(router, access, side);
}

function sidePages(router: Router, access: ReturnType<typeof accessOf>, side: Side): void {
  const { vc } = side;
  const ENTRY = navEntry(side.key);
  const title = () => tr(`app.invoices.title.${vc}`);
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr(`app.invoices.why.${vc}`), ENTRY.allowed);
  const props = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });
  const base = (page: CompanyPage) => ENTRY.path(page.company.dataset);

  /** `form`: the new document's form as typed, with the ledger's totals or a row to focus. */
  async function showList(
    ctx: Context,
    page: CompanyPage,
    status: number,
    top: unknown,
    refused?: Refused,
    form: { preview?: TotalsPreview; focusRow?: number } = {},
  ) {
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.slice(0, 200).trim() : '';
    const asked = typeof ctx.query.status === 'string' ? ctx.query.status : '';
    const only = (STATUSES as readonly string[]).includes(asked) ? asked : '';
    const mayWrite = roleHas(page.company.role, side.write);
    const mayUpload = vc === 'vendor' && roleHas(page.company.role, 'documents.upload');
    const [all, parties, services, taxes, accounts, aging] = await Promise.all([
      listOf<ListRow>(page, `/arap/invoices/${vc}?limit=1000&sort=id${only ? `&status=${only}` : ''}`),
      mayWrite ? listOf<PartyChoice>(page, `/arap/${vc}?limit=1000`) : [],
      mayWrite ? listOf<Service>(page, '/arap/services?limit=1000') : [],
      mayWrite ? listOf<TaxCode>(page, '/system/taxes') : [],
      mayWrite ? chartAccounts(page) : [],
      agingOf(page, vc),
    ]);
    const needle = q.toLowerCase();
    const rows = (
      needle
        ? all.filter((r) => [r.name, r.invNumber, r.documentNumber ?? ''].some((v) => v.toLowerCase().includes(needle)))
        : all
    ).reverse();
    await renderPage(
      ctx,
      status,
      props(page),
      <>
        {top}
        <form method="get" action={base(page)} id="document-search">
          <Field id="search-q" name="q" label={tr(`app.invoices.search.${vc}`)} value={q} />
          <label for="search-status">{tr('app.common.status')}</label>
          <select id="search-status" name="status">
            <option value="">{tr('app.invoices.allStatuses')}</option>
            {STATUSES.map((s) => (
              <option value={s} selected={s === only}>
                {tr(`app.invoices.status.${s}`)}
              </option>
            ))}
          </select>
          <p>
            <button type="submit" class="secondary">
              {tr('app.parties.searchButton')}
            </button>
          </p>
        </form>
        {rows.length ? (
          <div class="table-wrap">
            <table id="documents">
              <caption>{tr(`app.invoices.caption.${vc}`, { company: page.company.name })}</caption>
              <ColumnHeads
                columns={[
                  tr('app.invoices.number'),
                  tr(vc === 'customer' ? 'app.invoices.customer' : 'app.invoices.vendor'),
                  tr('app.common.date'),
                  tr('app.common.due'),
                  numeric(tr('app.common.total')),
                  numeric(tr('app.invoices.open')),
                  tr('app.common.status'),
                ]}
              />
              <tbody>
                {rows.map((r) => (
                  <tr data-document={r.id}>
                    <td>
                      <a href={`${base(page)}/${r.id}`}>{r.invNumber}</a>
                      {r.documentNumber ? ` (${r.documentNumber})` : ''}
                    </td>
                    <td>{r.name}</td>
                    <td>{day(r.invDate)}</td>
                    <td>{day(r.dueDate)}</td>
                    <td class="num">{`${r.currency} ${swissAmount(r.grossAmount)}`}</td>
                    <td class="num">{swissAmount(r.open)}</td>
                    <td>{documentState(r)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="no-documents">{tr('app.parties.none')}</p>
        )}
        <AgingTable aging={aging} vc={vc} />
        {mayUpload ? (
          <section aria-labelledby="receipt-heading">
            <h2 id="receipt-heading">{tr('app.invoices.receipt')}</h2>
            <form method="post" action={`${base(page)}/receipt`} enctype="multipart/form-data" id="receipt">
              <Csrf token={page.csrf} />
              <label for="receipt-file">{tr('app.invoices.receiptFile')}</label>
              <input
                type="file"
                id="receipt-file"
                name="file"
                accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
                required
              />
              <p>
                <button type="submit">{tr('app.invoices.receiptButton')}</button>
              </p>
            </form>
          </section>
        ) : null}
        {mayWrite ? (
          <section aria-labelledby="new-heading">
            <h2 id="new-heading">{tr(`app.invoices.new.${vc}`)}</h2>
            <AccountList accounts={accounts} />
            <NewDocumentForm
              vc={vc}
              action={`${base(page)}/new`}
              csrf={page.csrf}
              parties={parties}
              services={services}
              taxes={taxes}
              today={today()}
              party={typeof ctx.query.party === 'string' && ID.test(ctx.query.party) ? ctx.query.party : undefined}
              refused={refused}
              {...form}
            />
          </section>
        ) : null}
      </>,
    );
  }

  async function documentOf(ctx: Context, page: CompanyPage): Promise<InvoiceRead | undefined> {
    const id = String(ctx.params.id);
    const path = ID.test(id) ? `/arap/invoice/${vc}/${id}` : undefined;
    return (await readOr404(ctx, page, props(page), path, tr('app.invoices.noSuch'))) as InvoiceRead | undefined;
  }

  async function showDocument(
    ctx: Context,
    page: CompanyPage,
    doc: InvoiceRead,
    status: number,
    top: unknown,
    refused?: Refused,
  ) {
    const accounts = await chartAccounts(page);
    const bank = await listOf<{ account: string }>(page, '/bank/accounts');
    await renderPage(
      ctx,
      status,
      { ...props(page), title: tr(`app.invoices.one.${vc}`, { number: doc.invNumber }) },
      <>
        {top}
        <AccountList accounts={accounts} />
        <DocumentView
          vc={vc}
          doc={doc}
          base={base(page)}
          dataset={page.company.dataset}
          role={page.company.role}
          csrf={page.csrf}
          today={today()}
          accounts={accounts}
          paymentAccount={bank[0]?.account ?? '1020'}
          refused={refused}
        />
      </>,
    );
  }

  /** After an action on a document: its page with the ledger's refusal, or a redirect to it with a notice. */
  async function after(
    ctx: Context,
    page: CompanyPage,
    doc: InvoiceRead,
    answer: LedgerAnswer,
    notice: string,
    f?: Readonly<Record<string, unknown>>,
  ) {
    if (answer.status >= 200 && answer.status < 300) {
      const created = (answer.body as { id?: number } | undefined)?.id;
      const target = notice === 'reversed' && created ? created : doc.id;
      return seeOther(ctx, `${base(page)}/${target}?notice=${notice}`);
    }
    const refused = f ? refusedForm(f, answer) : undefined;
    await showDocument(ctx, page, doc, refusalStatus(answer), <LedgerRefusal answer={answer} />, refused);
  }

  router.get(ENTRY.path(':dataset'), async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    await showList(ctx, page, 200, null);
  });

  router.post(`${ENTRY.path(':dataset')}/new`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const action = f.action === 'add-row' || f.action === 'preview' ? f.action : 'write';
    if (action === 'add-row') {
      // the form again as typed with one more row, the focus in it; nothing is sent to the ledger
      const { refused, focusRow } = withRowAdded(f);
      return showList(ctx, page, 200, null, refused, { focusRow });
    }
    const made = newDocumentBody(vc, f);
    if ('problem' in made) {
      const refused = { values: f, message: made.problem, field: made.field };
      return showList(ctx, page, 400, <Notice kind="error">{made.problem}</Notice>, refused);
    }
    const refusal = (answer: LedgerAnswer) =>
      showList(
        ctx,
        page,
        refusalStatus(answer),
        <LedgerRefusal answer={answer} />,
        atFormRow(refusedForm(f, answer), made.rowOf),
      );
    if (action === 'preview') {
      // the ledger's totals of the form as typed (its invoice preview: nothing is written)
      const { pending: _pending, ...draft } = made.body;
      const answer = await page.call('POST', `/arap/invoices/${vc}/preview`, draft);
      if (answer.status !== 200) return refusal(answer);
      return showList(ctx, page, 200, null, { values: f, message: '' }, { preview: answer.body as TotalsPreview });
    }
    const answer = await page.call('POST', `/arap/invoice/${vc}`, made.body);
    if (answer.status !== 201) return refusal(answer);
    const created = answer.body as { id: number };
    seeOther(ctx, `${base(page)}/${created.id}?notice=${made.body.pending === '0' ? 'posted' : 'drafted'}`);
  });

  if (vc === 'vendor')
    router.post(`${ENTRY.path(':dataset')}/receipt`, receiptUpload, async (ctx) => {
      const page = await open(ctx);
      if (!page) return;
      const files = ctx.request.files?.file;
      const file = Array.isArray(files) ? files[0] : files;
      if (!file?.size)
        return showList(ctx, page, 400, <Notice kind="error">{tr('app.invoices.receiptMissing')}</Notice>);
      const data = await readFile(file.filepath);
      const type = file.mimetype ?? 'application/octet-stream';
      const answer = await page.call('POST', '/documents/inbox', {
        name: (file.originalFilename ?? 'receipt').slice(0, 200),
        data: `data:${type};base64,${data.toString('base64')}`,
      });
      if (answer.status !== 201) return showList(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />);
      const entry = answer.body as { id: number };
      seeOther(ctx, `/books/${page.company.dataset}/inbox/${entry.id}`);
    });

  router.get(`${ENTRY.path(':dataset')}/:id`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const doc = await documentOf(ctx, page);
    if (!doc) return;
    const notice = typeof ctx.query.notice === 'string' ? ctx.query.notice : '';
    const known = ['drafted', 'posted', 'paid', 'sent', 'reminded', 'reversed'] as const;
    const said = (known as readonly string[]).includes(notice)
      ? tr(`app.invoices.notice.${notice as (typeof known)[number]}`)
      : '';
    await showDocument(ctx, page, doc, 200, said ? <Notice kind="ok">{said}</Notice> : null);
  });

  router.get(`${ENTRY.path(':dataset')}/:id/pdf`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    const answer = ID.test(id) ? await page.call('GET', `/arap/invoice/${vc}/${id}/pdf`) : undefined;
    await sendFileOr404(ctx, props(page), answer?.file, `invoice-${id}.pdf`);
  });

  router.post(`${ENTRY.path(':dataset')}/:id/payment`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const doc = await documentOf(ctx, page);
    if (!doc) return;
    const f = bodyFields(ctx);
    const amount = String(f.amount ?? '').replace(/['’\s]/g, '');
    const answer = await page.call('POST', `/arap/payment/${vc}`, {
      document_id: doc.id,
      date: String(f.date ?? ''),
      amount: /^\d{1,13}(\.\d{1,6})?$/.test(amount) ? Number(amount) : amount,
      account: String(f.account ?? '').trim(),
      ...(String(f.memo ?? '').trim() ? { memo: String(f.memo).trim() } : {}),
    });
    await after(ctx, page, doc, answer, 'paid', f);
  });

  router.post(`${ENTRY.path(':dataset')}/:id/reverse`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const doc = await documentOf(ctx, page);
    if (!doc) return;
    const f = bodyFields(ctx);
    const date = String(f.reverse_date ?? '');
    const answer = await page.call('POST', `/arap/invoice/${vc}/${doc.id}/reverse`, date ? { date } : {});
    // the reversal's date is the form's `reverse_date` (the payment form has its own `date`)
    const refusedAt = (field?: string) => (field === 'date' ? 'reverse_date' : field);
    if (answer.status >= 300) {
      const refused = refusedForm(f, answer);
      const top = <LedgerRefusal answer={answer} />;
      return showDocument(ctx, page, doc, refusalStatus(answer), top, { ...refused, field: refusedAt(refused.field) });
    }
    await after(ctx, page, doc, answer, 'reversed');
  });

  if (vc === 'customer')
    router.post(`${ENTRY.path(':dataset')}/:id/reminder`, async (ctx) => {
      const page = await open(ctx);
      if (!page) return;
      const doc = await documentOf(ctx, page);
      if (!doc) return;
      const f = bodyFields(ctx);
      const fee = String(f.fee ?? '').replace(/['’\s]/g, '');
      const answer = await page.call('POST', `/arap/invoice/customer/${doc.id}/reminder`, {
        ...(fee ? { fee: /^\d{1,13}(\.\d{1,6})?$/.test(fee) ? Number(fee) : fee } : {}),
      });
      await after(ctx, page, doc, answer, 'reminded', f);
    });

  if (vc === 'customer')
    router.post(`${ENTRY.path(':dataset')}/:id/email`, async (ctx) => {
      const page = await open(ctx);
      if (!page) return;
      const doc = await documentOf(ctx, page);
      if (!doc) return;
      const f = bodyFields(ctx);
      const to = String(f.to ?? '').trim();
      const message = String(f.message ?? '').trim();
      const answer = await page.call('POST', `/arap/invoice/customer/${doc.id}/email`, {
        ...(to ? { to } : {}),
        ...(message ? { message } : {}),
      });
      await after(ctx, page, doc, answer, 'sent', f);
    });
}
