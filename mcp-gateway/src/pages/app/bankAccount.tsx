/**
 * Books → Bank account (`/books/{dataset}/bank/{id}`, docs/bank.md "The bank account page"):
 * one company bank account's daily work. Upload a statement; the unbooked lines with their
 * best proposal and one button to accept it; "Make a rule" beside the lines booked by hand;
 * the reconciliation with the statement balance and a form to reconcile; pain.001 payment files
 * made from the open bills and downloaded (paymentFiles.tsx). Every action calls
 * the ledger's REST API as the signed-in person, who needs the ledger's permission for it.
 */
import { readFile } from 'node:fs/promises';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { roleHas } from '@ledger/shared';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { chartAccounts, LedgerRefusal, listOf, readOr404, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { sendFileOr404 } from './files.tsx';
import { PaymentFiles, paymentFilesOf, tickedDocuments } from './paymentFiles.tsx';
import { tr as pageTr } from './language.ts';
import { bodyFields } from '../../http/bodyParser.ts';
import type { LedgerAnswer } from '../../ledgerClient.ts';
import {
  ACCOUNT_LIST,
  AccountList,
  ColumnHeads,
  Csrf,
  day,
  Notice,
  numeric,
  type Refused,
  renderPage,
  swissAmount,
} from './ui.tsx';

interface BankAccount {
  id: number;
  name: string;
  iban: string;
  currency: string;
  account: string;
}

interface Proposal {
  kind: 'document' | 'rule';
  document_id?: number;
  document_number?: string;
  open?: number;
  rule_id?: number;
  booking?: {
    kind: 'book' | 'settle';
    account?: string;
    document_number?: string;
    difference?: number;
    difference_account?: string;
  };
  score: number;
  why: string[];
}

interface BankLine {
  id: number;
  date: string;
  amount: number;
  counterparty: string | null;
  text: string | null;
  status: string;
  account: string | null;
  rule_id: number | null;
  document: { number: string } | null;
  proposals: Proposal[];
}

interface Reconciliation {
  date: string;
  statement_balance: number | null;
  ledger_balance: number;
  difference: number | null;
  reconciled_to: string | null;
  unbooked: { id: number }[];
}

interface BankRule {
  id: number;
  name: string;
}

const ID = /^[1-9]\d{0,15}$/;
/** The answer for a malformed line id in the path, as the ledger words a missing record. */
const NO_LINE: LedgerAnswer = {
  status: 404,
  body: { error: { code: 'not_found', message: 'No such bank line.' } },
  connectionChecked: false,
};
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A statement as the ledger's import takes it: its media type from the file's name. */
const mediaTypeOf = (name: string) => (/\.csv$/i.test(name) ? 'text/csv' : 'application/xml');
/** The statement upload alone reads multipart bodies, up to the ledger's file limit. */
const statementUpload = koaBody({ multipart: true, formidable: { maxFileSize: 10 * 1024 * 1024, maxFiles: 1 } });

export function bankAccountPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(ctx, 'the bank account page', 'Every member reads the bank accounts.', (role) =>
      roleHas(role, 'bank.bank_accounts'),
    );
  // the page's language: the person's choice, else the browser's (language.ts)
  const tr = (_ctx: Context) => pageTr;
  const pathOf = (page: CompanyPage, id: number | string) => `/books/${page.company.dataset}/bank/${id}`;

  async function accountOf(ctx: Context, page: CompanyPage): Promise<BankAccount | undefined> {
    const id = String(ctx.params.id);
    const props = { title: tr(ctx)('bank.statement'), ...page, current: ctx.path };
    const read = ID.test(id) ? `/bank/accounts/${id}` : undefined;
    return (await readOr404(ctx, page, props, read, 'No such bank account.')) as BankAccount | undefined;
  }

  async function show(
    ctx: Context,
    page: CompanyPage,
    account: BankAccount,
    status: number,
    top: unknown,
    refusedFile?: Refused,
  ) {
    const t = tr(ctx);
    const base = pathOf(page, account.id);
    const [unbooked, booked, rules, rec, accounts, payments] = await Promise.all([
      listOf<BankLine>(page, `/bank/transactions?account=${account.id}&status=unmatched&limit=200`),
      listOf<BankLine>(page, `/bank/transactions?account=${account.id}&status=booked&limit=50`),
      listOf<BankRule>(page, '/bank/rules'),
      page.call('GET', `/bank/accounts/${account.id}/reconciliation`),
      roleHas(page.company.role, 'bank.import') ? chartAccounts(page) : [],
      paymentFilesOf(page, account.id),
    ]);
    const ruleName = new Map(rules.map((r) => [r.id, r.name]));
    const reconciliation = rec.status === 200 ? (rec.body as Reconciliation) : undefined;
    const mayWrite = roleHas(page.company.role, 'bank.import');
    const money = (v: number | null | undefined) => (v === null || v === undefined ? '—' : swissAmount(v));
    const proposalText = (p: Proposal): string => {
      if (p.kind === 'document')
        return t('bank.account.proposalDocument', {
          number: p.document_number ?? '',
          open: money(p.open),
          score: p.score,
        });
      const b = p.booking;
      const booking =
        b?.kind === 'settle'
          ? t('bank.account.settle', {
              number: b.document_number ?? '',
              difference: money(b.difference),
              account: b.difference_account ?? '',
            })
          : t('bank.account.bookTo', { account: b?.account ?? '' });
      return t('bank.account.proposalRule', {
        rule: ruleName.get(p.rule_id ?? 0) ?? String(p.rule_id),
        booking,
        score: p.score,
      });
    };
    await renderPage(
      ctx,
      status,
      { title: t('bank.account.title', { name: account.name }), ...page, current: ctx.path },
      <>
        {top}
        <p>
          <code>{account.iban}</code> · {account.currency} · {t('bank.account.account')} {account.account}
        </p>
        <section aria-labelledby="reconciliation-heading">
          <h2 id="reconciliation-heading">{t('bank.account.reconciliation')}</h2>
          {reconciliation && reconciliation.statement_balance !== null ? (
            <dl id="reconciliation" data-difference={String(reconciliation.difference)}>
              <dt>{t('bank.account.asOf')}</dt>
              <dd>{reconciliation.date}</dd>
              <dt>{t('bank.account.statementBalance')}</dt>
              <dd>{money(reconciliation.statement_balance)}</dd>
              <dt>{t('bank.account.ledgerBalance')}</dt>
              <dd>{money(reconciliation.ledger_balance)}</dd>
              <dt>{t('bank.account.difference')}</dt>
              <dd id="difference">{money(reconciliation.difference)}</dd>
            </dl>
          ) : (
            <p id="no-statement">{t('bank.account.noStatement')}</p>
          )}
          {reconciliation?.reconciled_to ? (
            <p>{t('bank.account.reconciledTo', { date: reconciliation.reconciled_to })}</p>
          ) : null}
          {mayWrite && reconciliation && reconciliation.statement_balance !== null ? (
            <form method="post" action={`${base}/reconcile`} class="inline">
              <Csrf token={page.csrf} />
              <input type="hidden" name="date" value={reconciliation.date} />
              <input type="hidden" name="statement_balance" value={String(reconciliation.statement_balance)} />
              <button type="submit">{t('bank.account.reconcile')}</button>
            </form>
          ) : null}
        </section>
        {mayWrite ? (
          <section aria-labelledby="upload-heading">
            <h2 id="upload-heading">{t('bank.account.upload')}</h2>
            <form method="post" action={`${base}/import`} enctype="multipart/form-data">
              <Csrf token={page.csrf} />
              <label for="statement-file">{t('bank.account.uploadHint')}</label>
              <input
                type="file"
                id="statement-file"
                name="statement"
                accept=".xml,.csv,application/xml,text/csv"
                required
              />
              <button type="submit">{t('bank.account.uploadButton')}</button>
            </form>
          </section>
        ) : null}
        <section aria-labelledby="unbooked-heading">
          <h2 id="unbooked-heading">{t('bank.account.unbooked')}</h2>
          {mayWrite ? <AccountList accounts={accounts} /> : null}
          {unbooked.length ? (
            <div class="table-wrap">
              <table id="unbooked">
                <ColumnHeads
                  columns={[
                    t('bank.account.date'),
                    t('bank.account.counterparty'),
                    t('bank.account.text'),
                    numeric(t('bank.account.amount')),
                    t('bank.account.proposal'),
                  ]}
                />
                <tbody>
                  {unbooked.map((l) => {
                    const best = l.proposals[0];
                    return (
                      <tr data-line={l.id}>
                        <td>{day(l.date)}</td>
                        <td>{l.counterparty ?? ''}</td>
                        <td>{l.text ?? ''}</td>
                        <td class="num">{swissAmount(l.amount)}</td>
                        <td>
                          {best ? (
                            <>
                              <span class="proposal" title={best.why.join('; ')}>
                                {proposalText(best)}
                              </span>
                              {mayWrite ? (
                                <form method="post" action={`${base}/lines/${l.id}/accept`} class="inline">
                                  <Csrf token={page.csrf} />
                                  <input type="hidden" name="proposal" value="0" />
                                  {best.kind === 'document' ? (
                                    <input type="hidden" name="document_id" value={String(best.document_id)} />
                                  ) : (
                                    <input type="hidden" name="rule_id" value={String(best.rule_id)} />
                                  )}
                                  <button type="submit">{t('bank.account.accept')}</button>
                                </form>
                              ) : null}
                            </>
                          ) : (
                            t('bank.account.noProposal')
                          )}
                          {mayWrite ? (
                            <form method="post" action={`${base}/lines/${l.id}/book`} class="inline book-line">
                              <Csrf token={page.csrf} />
                              <label for={`book-${l.id}`}>{t('bank.account.bookToLabel')}</label>
                              <input
                                type="text"
                                id={`book-${l.id}`}
                                name="account"
                                list={ACCOUNT_LIST}
                                autocomplete="off"
                                required
                              />
                              <button type="submit" class="secondary">
                                {t('bank.account.book')}
                              </button>
                            </form>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ) : (
            <p id="no-unbooked">{t('bank.account.noUnbooked')}</p>
          )}
        </section>
        {booked.length ? (
          <section aria-labelledby="booked-heading">
            <h2 id="booked-heading">{t('bank.account.bookedByHand')}</h2>
            <div class="table-wrap">
              <table id="booked">
                <ColumnHeads
                  columns={[
                    t('bank.account.date'),
                    t('bank.account.counterparty'),
                    numeric(t('bank.account.amount')),
                    t('bank.account.account'),
                    '',
                  ]}
                />
                <tbody>
                  {booked.map((l) => (
                    <tr data-line={l.id}>
                      <td>{day(l.date)}</td>
                      <td>{l.counterparty ?? ''}</td>
                      <td class="num">{swissAmount(l.amount)}</td>
                      <td>{l.account ?? l.document?.number ?? ''}</td>
                      <td>
                        {mayWrite && l.account !== null && l.rule_id === null ? (
                          <form method="post" action={`${base}/lines/${l.id}/rule`} class="inline">
                            <Csrf token={page.csrf} />
                            <button type="submit" class="secondary">
                              {t('bank.account.makeRule')}
                            </button>
                          </form>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ) : null}
        <PaymentFiles page={page} base={base} data={payments} refused={refusedFile} />
      </>,
    );
  }

  /** After a write: the page again with the ledger's refusal, or a redirect to it with a notice. */
  async function after(
    ctx: Context,
    page: CompanyPage,
    account: BankAccount,
    answer: LedgerAnswer,
    ok: (body: Record<string, unknown>) => string,
  ): Promise<void> {
    if (answer.status >= 200 && answer.status < 300) {
      const body =
        typeof answer.body === 'object' && answer.body !== null ? (answer.body as Record<string, unknown>) : {};
      seeOther(ctx, `${pathOf(page, account.id)}?done=${encodeURIComponent(ok(body))}`);
      return;
    }
    await show(ctx, page, account, refusalStatus(answer), <LedgerRefusal answer={answer} />);
  }

  router.get('/books/:dataset/bank/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const done = typeof ctx.query.done === 'string' ? ctx.query.done.slice(0, 300) : '';
    await show(ctx, page, account, 200, done ? <Notice kind="ok">{done}</Notice> : null);
  });

  router.post('/books/:dataset/bank/:id/import', statementUpload, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const t = tr(ctx);
    const files = ctx.request.files?.statement;
    const file = Array.isArray(files) ? files[0] : files;
    if (!file) {
      await show(ctx, page, account, 400, <Notice kind="error">{t('bank.account.uploadHint')}</Notice>);
      return;
    }
    const text = await readFile(file.filepath, 'utf8');
    const type = mediaTypeOf(file.originalFilename ?? '');
    const answer = await page.call('POST', `/bank/transactions/import?account=${account.id}`, text, {
      'content-type': type,
    });
    await after(ctx, page, account, answer, (b) =>
      t('bank.account.imported', {
        imported: Number(b.imported ?? 0),
        duplicates: Number(b.duplicates ?? 0),
        matched: Number(b.matched ?? 0),
      }),
    );
  });

  router.post('/books/:dataset/bank/:id/lines/:line/accept', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const f = bodyFields(ctx);
    const line = String(ctx.params.line);
    const idOf = (v: unknown) => (typeof v === 'string' && ID.test(v) ? Number(v) : undefined);
    const body = {
      proposal: Number(f.proposal ?? 0),
      ...(idOf(f.document_id) ? { document_id: idOf(f.document_id) } : {}),
      ...(idOf(f.rule_id) ? { rule_id: idOf(f.rule_id) } : {}),
    };
    const answer = ID.test(line) ? await page.call('POST', `/bank/transactions/${line}/book`, body) : NO_LINE;
    await after(ctx, page, account, answer, () => tr(ctx)('bank.account.accepted', { id: line }));
  });

  router.post('/books/:dataset/bank/:id/lines/:line/book', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const line = String(ctx.params.line);
    const to = String(bodyFields(ctx).account ?? '').trim();
    const answer = ID.test(line)
      ? await page.call('POST', `/bank/transactions/${line}/book`, { account: to })
      : NO_LINE;
    await after(ctx, page, account, answer, () => tr(ctx)('bank.account.bookedTo', { id: line, account: to }));
  });

  router.post('/books/:dataset/bank/:id/lines/:line/rule', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const line = String(ctx.params.line);
    const answer = ID.test(line) ? await page.call('POST', `/bank/transactions/${line}/rule`, {}) : NO_LINE;
    await after(ctx, page, account, answer, (b) => tr(ctx)('bank.account.ruleMade', { id: String(b.id ?? '') }));
  });

  router.post('/books/:dataset/bank/:id/payment-files', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const f = bodyFields(ctx);
    const ids = tickedDocuments(f.document);
    const t = tr(ctx);
    if (ids.length === 0) {
      const refused = { values: f, message: t('bank.paymentFiles.noneTicked') };
      await show(ctx, page, account, 400, <Notice kind="error">{refused.message}</Notice>, refused);
      return;
    }
    const answer = await page.call('POST', '/bank/payment_files', {
      bank_account_id: account.id,
      execution_date: String(f.execution_date ?? '').trim(),
      document_ids: ids,
    });
    if (answer.status !== 201) {
      await show(ctx, page, account, refusalStatus(answer), <LedgerRefusal answer={answer} />, refusedForm(f, answer));
      return;
    }
    const made = answer.body as { id: number; count: number; total: number };
    seeOther(
      ctx,
      `${pathOf(page, account.id)}?done=${encodeURIComponent(
        t('bank.paymentFiles.made', { count: made.count, total: swissAmount(made.total) }),
      )}#payment-files-heading`,
    );
  });

  router.get('/books/:dataset/bank/:id/payment-files/:file', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const file = String(ctx.params.file);
    const answer = ID.test(file) ? await page.call('GET', `/bank/payment_files/${file}`) : undefined;
    const props = { title: tr(ctx)('bank.paymentFiles.title'), ...page, current: ctx.path };
    await sendFileOr404(ctx, props, answer?.file, `pain001-${file}.xml`);
  });

  router.post('/books/:dataset/bank/:id/reconcile', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = await accountOf(ctx, page);
    if (!account) return;
    const f = bodyFields(ctx);
    const date = typeof f.date === 'string' && DATE.test(f.date) ? f.date : '';
    const answer = await page.call('POST', `/bank/accounts/${account.id}/reconcile`, {
      date,
      statement_balance: Number(f.statement_balance),
    });
    await after(ctx, page, account, answer, (b) =>
      tr(ctx)('bank.account.reconciled', { count: Number(b.reconciled ?? 0), date }),
    );
  });
}
