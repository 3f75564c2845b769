/**
 * Journal-entry drafts on the workstation (`/books/{dataset}/workstation/journal/{id}`): the
 * entry's debit and credit lines, totals and files, and for members who book journal entries
 * (`gl.add_journal_entry`) approve and post, change (description, date, lines added, changed or
 * removed) and delete. A journal entry is posted by saving the complete entry with pending "0"
 * (`POST /gl/transactions/{id}`); the ledger checks that debits equal credits.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { money, roleHas } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { chartAccounts, readOr404, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { parseAmount } from './draftForm.tsx';
import * as DraftPage from './draftPage.tsx';
import { type AttachedFile, sendFileOr404 } from './files.tsx';
import { tr } from './language.ts';
import {
  ACCOUNT_LIST,
  AccountList,
  accountName,
  type ChartAccount,
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
} from './ui.tsx';

interface JournalLine {
  account: string;
  accountDescription?: string;
  description?: string;
  debit: number;
  credit: number;
}

/** The read shape of a journal entry (GET /gl/transactions/{id}), the fields the page uses. */
export interface JournalDraft {
  id: number;
  reference: string;
  transdate: string;
  description?: string;
  currency: string;
  exchangerate: number;
  status: string;
  totalDebit?: number;
  lines: JournalLine[];
  files: AttachedFile[];
}

interface LineInput {
  account: string;
  debit: number;
  credit: number;
  description?: string;
}

const title = () => tr('app.workstation.title');
const ENTRY = navEntry('workstation');
const ID = /^[1-9]\d{0,15}$/;

/** The complete write body of a journal draft (the update replaces the entry). */
export function journalBody(
  d: JournalDraft,
  changes: { description?: string; transdate?: string; lines?: LineInput[] } = {},
) {
  const description = changes.description ?? d.description;
  const lines =
    changes.lines ??
    d.lines.map((l) => ({ account: l.account, debit: l.debit, credit: l.credit, description: l.description }));
  return {
    reference: d.reference,
    transdate: changes.transdate ?? d.transdate,
    ...(description ? { description } : {}),
    curr: d.currency,
    exchangerate: d.exchangerate,
    lines: lines.map((l) => ({
      account: l.account,
      ...(l.debit ? { debit: l.debit } : {}),
      ...(l.credit ? { credit: l.credit } : {}),
      ...(l.description ? { description: l.description } : {}),
    })),
  };
}

/** The posted form's lines: existing rows unless removed, the empty row when filled; or the first problem. */
export function parseJournalLines(
  f: Readonly<Record<string, unknown>>,
  originals: number,
): { lines: LineInput[] } | { problem: string; field?: string } {
  const n = Number(f.rows);
  const rows = Number.isInteger(n) && n > 0 ? Math.min(n, 501) : 0;
  const lines: LineInput[] = [];
  for (let i = 0; i < rows; i++) {
    if (String(f[`remove_${i}`] ?? '')) continue;
    const [account, debitText, creditText, description] = ['account', 'debit', 'credit', 'description'].map((k) =>
      String(f[`${k}_${i}`] ?? '').trim(),
    ) as [string, string, string, string];
    const isNew = i >= originals;
    if (isNew && !account && !debitText && !creditText && !description) continue;
    const row = isNew ? tr('app.form.theNewLine') : tr('app.form.line', { n: i + 1 });
    const debit = debitText ? parseAmount(debitText) : '0';
    const credit = creditText ? parseAmount(creditText) : '0';
    if (!account) return { problem: tr('app.form.needsAccount', { row }), field: `account_${i}` };
    if (debit === undefined || credit === undefined || debit.startsWith('-') || credit.startsWith('-'))
      return {
        problem: tr('app.form.badDebitCredit', { row }),
        field: debit === undefined ? `debit_${i}` : `credit_${i}`,
      };
    if (Number(debit) > 0 === Number(credit) > 0)
      return { problem: tr('app.form.debitOrCredit', { row }), field: `debit_${i}` };
    lines.push({ account, debit: Number(debit), credit: Number(credit), ...(description ? { description } : {}) });
  }
  return lines.length >= 2 ? { lines } : { problem: tr('app.form.keepTwo') };
}

/** A line's inputs; `refused`: a refused change, whose typed values they show again. */
function LineFields({ l, i, refused }: { l?: JournalLine; i: number; refused?: Refused }) {
  const row = l ? tr('app.form.lineRow', { n: i + 1 }) : tr('app.form.newLine');
  const field = (key: string, label: string, value: string, decimal = false) => (
    <Field
      id={`j${key}-${i}`}
      name={`${key}_${i}`}
      label={label}
      value={shown(refused, `${key}_${i}`, value)}
      decimal={decimal}
      list={key === 'account' ? ACCOUNT_LIST : undefined}
      refused={refused}
    />
  );
  return (
    <fieldset class="row" data-row={String(i)}>
      <legend>{l ? tr('app.form.line', { n: i + 1 }) : tr('app.form.addLine')}</legend>
      {field('account', tr('app.form.accountOf', { row }), l?.account ?? '')}
      {field('description', tr('app.form.textOf', { row }), l?.description ?? '')}
      {field('debit', tr('app.form.debitOf', { row }), l?.debit ? swissAmount(l.debit) : '', true)}
      {field('credit', tr('app.form.creditOf', { row }), l?.credit ? swissAmount(l.credit) : '', true)}
      {l ? (
        <label for={`remove-${i}`} class="check">
          <input type="checkbox" id={`remove-${i}`} name={`remove_${i}`} value="1" />{' '}
          {tr('app.form.removeLine', { n: i + 1 })}
        </label>
      ) : null}
    </fieldset>
  );
}

export function journalPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.workstation.why'), ENTRY.allowed);
  const path = (page: CompanyPage, id: number) => `${ENTRY.path(page.company.dataset)}/journal/${id}`;
  const listProps = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });

  async function entryOf(ctx: Context, page: CompanyPage): Promise<JournalDraft | undefined> {
    const id = String(ctx.params.id);
    const read = ID.test(id) ? `/gl/transactions/${id}` : undefined;
    return (await readOr404(ctx, page, listProps(page), read, tr('app.workstation.noSuch'))) as
      | JournalDraft
      | undefined;
  }

  async function show(
    ctx: Context,
    page: CompanyPage,
    d: JournalDraft,
    status: number,
    top: unknown,
    refused?: Refused,
  ) {
    const base = path(page, d.id);
    const preparer = await DraftPage.preparedBy(page, 'kind=journal', d.id);
    const mayWrite = d.status === 'draft' && roleHas(page.company.role, 'gl.add_journal_entry');
    const accounts: ChartAccount[] = await chartAccounts(page);
    const sum = (k: 'debit' | 'credit') => d.lines.reduce((s, l) => s.plus(l[k]), money(0)).toFixed();
    await renderPage(
      ctx,
      status,
      {
        title: tr('app.journal.title', { reference: d.reference }),
        ...page,
        current: ENTRY.path(page.company.dataset),
      },
      <>
        {top}
        <DraftPage.AllDraftsLink href={ENTRY.path(page.company.dataset)} />
        <dl id="draft-header">
          <dt>{tr('app.common.status')}</dt>
          <dd id="draft-status">{statusName(d.status)}</dd>
          <dt>{tr('app.common.date')}</dt>
          <dd>{day(d.transdate)}</dd>
          <dt>{tr('app.common.description')}</dt>
          <dd>{d.description || '—'}</dd>
          <dt>{tr('app.common.currency')}</dt>
          <dd>
            {d.currency}
            {d.exchangerate !== 1 ? ` ${tr('app.journal.rate', { rate: d.exchangerate })}` : ''}
          </dd>
          <dt>{tr('app.workstation.preparedBy')}</dt>
          <dd id="prepared-by">{preparer}</dd>
        </dl>
        <div class="table-wrap">
          <table id="lines">
            <caption>{tr('app.journal.lines', { currency: d.currency })}</caption>
            <ColumnHeads
              columns={[
                tr('app.common.account'),
                tr('app.common.text'),
                numeric(tr('app.common.debit')),
                numeric(tr('app.common.credit')),
              ]}
            />
            <tbody>
              {d.lines.map((l) => (
                <tr>
                  <td>
                    {l.accountDescription ? `${l.account} ${l.accountDescription}` : accountName(accounts, l.account)}
                  </td>
                  <td>{l.description ?? ''}</td>
                  <td class="num">{l.debit ? swissAmount(l.debit) : ''}</td>
                  <td class="num">{l.credit ? swissAmount(l.credit) : ''}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colspan={2}>
                  {tr('app.common.total')}
                </th>
                <td class="num" id="total-debit">
                  {swissAmount(sum('debit'))}
                </td>
                <td class="num" id="total-credit">
                  {swissAmount(sum('credit'))}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
        <DraftPage.AttachedFiles files={d.files} href={(f) => `${base}/files/${f.id}`} />
        {mayWrite ? (
          <>
            <DraftPage.ApproveForm action={`${base}/approve`} csrf={page.csrf} />
            <DraftPage.ChangeForm
              action={`${base}/update`}
              csrf={page.csrf}
              description={shown(refused, 'description', d.description)}
            >
              <Field
                type="date"
                id="transdate"
                name="transdate"
                label={tr('app.common.date')}
                required
                value={shown(refused, 'transdate', d.transdate)}
                refused={refused}
              />
              <input type="hidden" name="rows" value={String(d.lines.length + 1)} />
              <AccountList accounts={accounts} />
              {[...d.lines, undefined].map((l, i) => (
                <LineFields l={l} i={i} refused={refused} />
              ))}
              <p class="hint">{tr('app.journal.hint')}</p>
            </DraftPage.ChangeForm>
            <DraftPage.DeleteForm action={`${base}/delete`} csrf={page.csrf} />
          </>
        ) : null}
      </>,
    );
  }

  router.get('/books/:dataset/workstation/journal/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await entryOf(ctx, page);
    if (!d) return;
    await show(
      ctx,
      page,
      d,
      200,
      ctx.query.notice === 'saved' ? <Notice kind="ok">{tr('app.workstation.saved')}</Notice> : null,
    );
  });

  router.get('/books/:dataset/workstation/journal/:id/files/:fileId', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const [id, fileId] = [String(ctx.params.id), String(ctx.params.fileId)];
    const answer =
      ID.test(id) && ID.test(fileId) ? await page.call('GET', `/gl/transactions/${id}/files/${fileId}`) : undefined;
    await sendFileOr404(ctx, listProps(page), answer?.file, `file-${fileId}`);
  });

  router.post('/books/:dataset/workstation/journal/:id/approve', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await entryOf(ctx, page);
    if (!d) return;
    const answer = await page.call('POST', `/gl/transactions/${d.id}`, { ...journalBody(d), pending: '0' });
    if (answer.status !== 200)
      return show(ctx, page, d, refusalStatus(answer), <DraftPage.Refusal answer={answer} stays />);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=posted`);
  });

  router.post('/books/:dataset/workstation/journal/:id/update', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await entryOf(ctx, page);
    if (!d) return;
    const f = bodyFields(ctx);
    const parsed = parseJournalLines(f, d.lines.length);
    if ('problem' in parsed) {
      const refused = { values: f, message: parsed.problem, field: parsed.field };
      return show(ctx, page, d, 400, <DraftPage.NothingSaved problem={parsed.problem} />, refused);
    }
    const body = journalBody(d, {
      description: String(f.description ?? '').trim(),
      transdate: String(f.transdate ?? ''),
      lines: parsed.lines,
    });
    const answer = await page.call('POST', `/gl/transactions/${d.id}`, body);
    if (answer.status !== 200) {
      const top = <DraftPage.Refusal answer={answer} />;
      return show(ctx, page, d, refusalStatus(answer), top, refusedForm(f, answer));
    }
    seeOther(ctx, `${path(page, d.id)}?notice=saved`);
  });

  router.post('/books/:dataset/workstation/journal/:id/delete', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const d = await entryOf(ctx, page);
    if (!d) return;
    const answer = await page.call('DELETE', `/gl/transactions/${d.id}`);
    if (answer.status !== 204) return show(ctx, page, d, refusalStatus(answer), <DraftPage.Refusal answer={answer} />);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=deleted`);
  });
}
