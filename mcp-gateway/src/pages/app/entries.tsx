/**
 * Books → Journal entries (`/books/{dataset}/entries`): the company's journal entries (status
 * filter, search by reference or text), a form for a new one with debit and credit lines (as
 * many as needed: **Add a row** shows it again as typed with one more), saved as a draft
 * (approved and posted on the workstation) or posted at once, and the reversal of a posted one.
 * Through the journal's REST contracts as the person (`GET/POST /gl/transactions`,
 * `POST /gl/transactions/{id}/reverse`); the ledger checks that debits equal credits.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { roleHas } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { chartAccounts, LedgerRefusal, listOf, refusalStatus, refusedForm, seeOther } from './access.tsx';
import { parseAmount } from './draftForm.tsx';
import { tr } from './language.ts';
import {
  ACCOUNT_LIST,
  AccountList,
  AddRow,
  ColumnHeads,
  Csrf,
  day,
  Field,
  formRows,
  Notice,
  navEntry,
  numeric,
  type Refused,
  renderPage,
  RowField,
  shown,
  swissAmount,
  withRowAdded,
} from './ui.tsx';

/** A row of GET /gl/transactions (the fields the list shows). */
interface EntryRow {
  id: number;
  reference?: string;
  transdate: string;
  description?: string;
  currency: string;
  status: string;
  totalDebit: number;
  reversalOf?: number | null;
  reversedBy?: number | null;
  closing: boolean;
}

const ENTRY = navEntry('entries');
const title = () => tr('app.entries.title');
const STATUSES = ['draft', 'posted', 'reversed'] as const;
const ID = /^[1-9]\d{0,15}$/;
const today = () => new Date().toISOString().slice(0, 10);
const text = (f: Readonly<Record<string, unknown>>, name: string) => String(f[name] ?? '').trim();

const statusText = (s: string) =>
  (STATUSES as readonly string[]).includes(s) ? tr(`app.invoices.status.${s as (typeof STATUSES)[number]}`) : s;

/** The write body of the posted form, or the first problem and its field. */
function entryBody(
  f: Readonly<Record<string, unknown>>,
): { body: Record<string, unknown> } | { problem: string; field?: string } {
  const lines: Record<string, unknown>[] = [];
  for (let i = 0; i < formRows(f); i++) {
    const [account, debitText, creditText, description] = ['account', 'debit', 'credit', 'description'].map((k) =>
      text(f, `${k}_${i}`),
    ) as [string, string, string, string];
    if (!account && !debitText && !creditText && !description) continue;
    const row = tr('app.form.line', { n: i + 1 });
    const debit = debitText ? parseAmount(debitText) : '0';
    const credit = creditText ? parseAmount(creditText) : '0';
    if (!account) return { problem: tr('app.form.needsAccount', { row }), field: `account_${i}` };
    if (debit === undefined || credit === undefined || Number(debit) < 0 || Number(credit) < 0)
      return {
        problem: tr('app.form.badDebitCredit', { row }),
        field: debit === undefined ? `debit_${i}` : `credit_${i}`,
      };
    if (Number(debit) > 0 === Number(credit) > 0)
      return { problem: tr('app.form.debitOrCredit', { row }), field: `debit_${i}` };
    lines.push({
      account,
      ...(Number(debit) > 0 ? { debit: Number(debit) } : { credit: Number(credit) }),
      ...(description ? { description } : {}),
    });
  }
  if (lines.length < 2) return { problem: tr('app.form.keepTwo'), field: 'account_0' };
  const optional = (name: string) => (text(f, name) ? { [name]: text(f, name) } : {});
  return {
    body: {
      ...optional('reference'),
      transdate: text(f, 'transdate'),
      ...optional('description'),
      lines,
      ...(text(f, 'post') === '1' ? { pending: '0' } : {}),
    },
  };
}

function NewEntryForm(p: { action: string; csrf: string; refused?: Refused; focusRow?: number }) {
  const { action, csrf, refused } = p;
  const rows = formRows(refused?.values);
  return (
    <form method="post" action={action} id="new-entry" aria-labelledby="new-heading">
      <Csrf token={csrf} />
      <Field
        id="j-transdate"
        name="transdate"
        type="date"
        label={tr('app.common.date')}
        value={shown(refused, 'transdate', today())}
        required
        refused={refused}
      />
      <Field
        id="j-reference"
        name="reference"
        label={tr('app.entries.reference')}
        value={shown(refused, 'reference', '')}
        refused={refused}
      />
      <Field
        id="j-description"
        name="description"
        label={tr('app.common.description')}
        value={shown(refused, 'description', '')}
        refused={refused}
      />
      <p class="hint">{tr('app.journal.hint')}</p>
      {Array.from({ length: rows }, (_, i) => {
        const row = tr('app.form.lineRow', { n: i + 1 });
        const at = { i, refused };
        return (
          <fieldset class="row" data-row={String(i)}>
            <legend>{tr('app.form.line', { n: i + 1 })}</legend>
            <RowField
              {...at}
              prefix="account"
              name="account"
              label={tr('app.form.accountOf', { row })}
              list={ACCOUNT_LIST}
              autofocus={p.focusRow === i}
            />
            <RowField {...at} prefix="debit" name="debit" label={tr('app.form.debitOf', { row })} decimal />
            <RowField {...at} prefix="credit" name="credit" label={tr('app.form.creditOf', { row })} decimal />
            <RowField {...at} prefix="ldesc" name="description" label={tr('app.form.textOf', { row })} />
          </fieldset>
        );
      })}
      <AddRow rows={rows} />
      <p class="actions">
        <button type="submit" name="post" value="0" class="secondary">
          {tr('app.invoices.saveDraft')}
        </button>{' '}
        <button type="submit" name="post" value="1">
          {tr('app.invoices.post')}
        </button>
      </p>
    </form>
  );
}

export function entriesPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.entries.why'), ENTRY.allowed);
  const props = (page: CompanyPage) => ({ title: title(), ...page, current: ENTRY.path(page.company.dataset) });

  /** `focusRow`: the row just added to the new entry's form. */
  async function show(
    ctx: Context,
    page: CompanyPage,
    status: number,
    top: unknown,
    refused?: Refused,
    focusRow?: number,
  ) {
    const base = ENTRY.path(page.company.dataset);
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.slice(0, 200).trim() : '';
    const asked = typeof ctx.query.status === 'string' ? ctx.query.status : '';
    const only = (STATUSES as readonly string[]).includes(asked) ? asked : '';
    const mayWrite = roleHas(page.company.role, 'gl.add_journal_entry');
    const [all, accounts] = await Promise.all([
      listOf<EntryRow>(page, `/gl/transactions?limit=1000&sort=id${only ? `&status=${only}` : ''}`),
      mayWrite ? chartAccounts(page) : [],
    ]);
    const needle = q.toLowerCase();
    const rows = (
      needle
        ? all.filter((r) => [r.reference ?? '', r.description ?? ''].some((v) => v.toLowerCase().includes(needle)))
        : all
    ).reverse();
    const workstation = `/books/${page.company.dataset}/workstation/journal`;
    await renderPage(
      ctx,
      status,
      props(page),
      <>
        {top}
        <form method="get" action={base} id="entry-search">
          <Field id="search-q" name="q" label={tr('app.entries.search')} value={q} />
          <label for="search-status">{tr('app.common.status')}</label>
          <select id="search-status" name="status">
            <option value="">{tr('app.invoices.allStatuses')}</option>
            {STATUSES.map((s) => (
              <option value={s} selected={s === only}>
                {statusText(s)}
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
            <table id="entries">
              <caption>{tr('app.entries.caption', { company: page.company.name })}</caption>
              <ColumnHeads
                columns={[
                  tr('app.entries.reference'),
                  tr('app.common.date'),
                  tr('app.common.description'),
                  numeric(tr('app.common.amount')),
                  tr('app.common.status'),
                  '',
                ]}
              />
              <tbody>
                {rows.map((r) => (
                  <tr data-entry={r.id}>
                    <td>
                      {r.status === 'draft' ? (
                        <a href={`${workstation}/${r.id}`}>{r.reference || `#${r.id}`}</a>
                      ) : (
                        r.reference || `#${r.id}`
                      )}
                    </td>
                    <td>{day(r.transdate)}</td>
                    <td>{r.description ?? ''}</td>
                    <td class="num">{`${r.currency} ${swissAmount(r.totalDebit)}`}</td>
                    <td>{statusText(r.status)}</td>
                    <td>
                      {mayWrite && r.status === 'posted' && !r.reversalOf && !r.closing ? (
                        <form method="post" action={`${base}/${r.id}/reverse`} class="inline">
                          <Csrf token={page.csrf} />
                          <button
                            type="submit"
                            class="secondary"
                            aria-label={tr('app.entries.reverseOne', { reference: r.reference || `#${r.id}` })}
                          >
                            {tr('app.invoices.reverse')}
                          </button>
                        </form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p id="no-entries">{tr('app.parties.none')}</p>
        )}
        {mayWrite ? (
          <section aria-labelledby="new-heading">
            <h2 id="new-heading">{tr('app.entries.new')}</h2>
            <AccountList accounts={accounts} />
            <NewEntryForm action={`${base}/new`} csrf={page.csrf} refused={refused} focusRow={focusRow} />
          </section>
        ) : null}
      </>,
    );
  }

  router.get(ENTRY.path(':dataset'), async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const notice = typeof ctx.query.notice === 'string' ? ctx.query.notice : '';
    const known = ['drafted', 'posted', 'reversed'] as const;
    const said = (known as readonly string[]).includes(notice)
      ? tr(`app.entries.notice.${notice as (typeof known)[number]}`)
      : '';
    await show(ctx, page, 200, said ? <Notice kind="ok">{said}</Notice> : null);
  });

  router.post(`${ENTRY.path(':dataset')}/new`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    if (f.action === 'add-row') {
      const { refused, focusRow } = withRowAdded(f);
      return show(ctx, page, 200, null, refused, focusRow);
    }
    const made = entryBody(f);
    if ('problem' in made) {
      const refused = { values: f, message: made.problem, field: made.field };
      return show(ctx, page, 400, <Notice kind="error">{made.problem}</Notice>, refused);
    }
    const answer = await page.call('POST', '/gl/transactions', made.body);
    if (answer.status !== 201)
      return show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />, refusedForm(f, answer));
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=${made.body.pending === '0' ? 'posted' : 'drafted'}`);
  });

  router.post(`${ENTRY.path(':dataset')}/:id/reverse`, async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    if (!ID.test(id)) return show(ctx, page, 404, <Notice kind="error">{tr('app.entries.noSuch')}</Notice>);
    const answer = await page.call('POST', `/gl/transactions/${id}/reverse`, {});
    if (answer.status !== 201) return show(ctx, page, refusalStatus(answer), <LedgerRefusal answer={answer} />);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=reversed`);
  });
}
