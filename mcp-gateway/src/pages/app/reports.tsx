/**
 * Books → Reports (`/books/{dataset}/reports`): trial balance, income statement, balance sheet
 * and VAT report for a chosen period (a plain GET form), each account drilling down to its
 * ledger lines (`/books/{dataset}/reports/ledger`) and from there to the source documents;
 * the same report as CSV or PDF (the ledger renders both; the gateway passes the file on).
 * On screen the income statement and the balance sheet read as a Swiss fiduciary reads them:
 * income, liabilities and equity positive, the year's profit positive (`fiduciary`); the JSON API
 * keeps the ledger's signs (credit balances negative), only this presentation turns them.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { contracts, ResponseOf } from '@ledger/shared';
import type { Child } from 'hono/jsx';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, readOr404 } from './access.tsx';
import { pageLanguage, tr } from './language.ts';
import { ColumnHeads, day, Notice, navEntry, numeric, renderErrorPage, renderPage, swissAmount } from './ui.tsx';

const REPORTS = ['trial_balance', 'income_statement', 'balance_sheet', 'vat'] as const;
type ReportName = (typeof REPORTS)[number];
const isReport = (value: string): value is ReportName => (REPORTS as readonly string[]).includes(value);
const reportName = (r: ReportName) => tr(`app.reports.${r}`);

const title = () => tr('app.reports.title');
const ENTRY = navEntry('reports');
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ACCNO = /^[0-9A-Za-z._-]{1,20}$/;

interface AccountAmount {
  accno: string;
  description: string;
  amount: number;
}
interface Section {
  accounts: AccountAmount[];
  total: number;
}

/** An item of the layout of the Code of Obligations (`layout=or`), as the ledger answers it. */
interface OrItem {
  key: string;
  number: string;
  label: string;
  amount: number;
  accounts: AccountAmount[];
}
interface OrSide {
  label: string;
  total: number;
  groups: { number: string; label: string; total: number; items: OrItem[] }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** An account's ledger lines, as the ledger answers them. */
type LedgerLines = ResponseOf<typeof contracts.getLedger>;

interface Period {
  report: ReportName;
  /** empty until the ledger answers: its default is the first day of the company's fiscal year of `to` */
  from: string;
  to: string;
  /** the income statement or balance sheet laid out per Art. 959a/959b CO, in the page's language */
  or: boolean;
}

/** The period of the query, defaulting to the company's fiscal year up to today (the ledger's default). */
function periodOf(ctx: Context): Period {
  const today = new Date().toISOString().slice(0, 10);
  const asked = String(ctx.query.report ?? '');
  const report = isReport(asked) ? asked : 'trial_balance';
  const to = DATE.test(String(ctx.query.to ?? '')) ? String(ctx.query.to) : today;
  const from = DATE.test(String(ctx.query.from ?? '')) ? String(ctx.query.from) : '';
  const or = ctx.query.layout === 'or' && (report === 'income_statement' || report === 'balance_sheet');
  return { report, from, to, or };
}

/** The ledger query of a report: the balance sheet is at a date (`to`), the others for a period. */
const reportQuery = (p: Period) =>
  (p.report === 'balance_sheet' ? `date=${p.to}` : `${p.from ? `from=${p.from}&` : ''}to=${p.to}`) +
  (p.or ? `&layout=or&language=${pageLanguage()}` : '');

/** The period with the ledger's `from` once it answered (the fiscal year's first day when none was asked). */
const answered = (p: Period, body: unknown): Period =>
  !p.from && typeof body === 'object' && body !== null && 'from' in body && typeof body.from === 'string'
    ? { ...p, from: body.from }
    : p;

/** Where a ledger line's source document is shown in the app (AR/AP documents on their page). */
function sourceHref(dataset: string, source: { kind: string; id: number }): string | undefined {
  const vc = source.kind.startsWith('vendor_')
    ? 'vendor'
    : source.kind.startsWith('customer_')
      ? 'customer'
      : undefined;
  return vc ? `/books/${dataset}/workstation/${vc}/${source.id}` : undefined;
}

/**
 * A credit-side figure (income, a liability, equity) as a Swiss fiduciary reads it: the ledger keeps
 * credit balances negative, the statement shows them positive (and a debit balance there negative).
 */
export const fiduciary = (ledgerAmount: number): number => (ledgerAmount === 0 ? 0 : -ledgerAmount);

/** A report of one amount per account (income statement, balance sheet): `children` are its rows. */
function AmountTable({ caption, children }: { caption: Child; children: Child }) {
  return (
    <table id="report-table">
      <caption>{caption}</caption>
      <ColumnHeads columns={[tr('app.common.account'), numeric(tr('app.common.amount'))]} />
      <tbody>{children}</tbody>
    </table>
  );
}

/** A row of a label (a total, a result) and its amount. */
function LabelledAmount({ label, amount, id }: { label: Child; amount: string; id?: string }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td class="num" id={id}>
        {amount}
      </td>
    </tr>
  );
}

export function reportsPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.reports.why'), ENTRY.allowed);

  function PeriodForm({ p }: { p: Period }) {
    return (
      <form method="get" id="period">
        <label for="report">{tr('app.reports.report')}</label>
        <select id="report" name="report">
          {REPORTS.map((r) => (
            <option value={r} selected={r === p.report}>
              {reportName(r)}
            </option>
          ))}
        </select>
        <label for="from">{tr('app.reports.from')}</label>
        <input type="date" id="from" name="from" value={p.from} />
        <label for="to">{tr('app.reports.to')}</label>
        <input type="date" id="to" name="to" value={p.to} />
        <label>
          <input type="checkbox" name="layout" value="or" checked={p.or} /> {tr('app.reports.orLayout')}
        </label>
        <p>
          <button type="submit">{tr('app.reports.show')}</button>
        </p>
      </form>
    );
  }

  function body(page: CompanyPage, p: Period, data: Record<string, unknown>) {
    const ledgerLink = (accno: string, label: string) => (
      <a
        href={
          `${ENTRY.path(page.company.dataset)}/ledger?account=${encodeURIComponent(accno)}` +
          `&from=${p.from}&to=${p.to}`
        }
      >
        {label}
      </a>
    );
    const n = (v: unknown) => swissAmount(typeof v === 'number' ? v : undefined);
    // the fiduciary's sign of a credit-side figure (income, liabilities, equity): the ledger's, turned
    const turned = (v: unknown) => n(typeof v === 'number' ? fiduciary(v) : undefined);
    const [from, to] = [day(p.from), day(p.to)];
    if (p.or && isRecord(data.or)) {
      const period = p.report === 'balance_sheet' ? to : `${from} – ${to}`;
      const caption = tr('app.reports.orCaption', {
        report: reportName(p.report),
        period,
        currency: String(data.currency),
      });
      const itemRows = (items: OrItem[]) =>
        items.map((i) => (
          <>
            <tr data-item={i.key}>
              <th scope="row">{`${i.number} ${i.label}`}</th>
              <td class="num">{n(i.amount)}</td>
            </tr>
            {i.accounts.map((a) => (
              <tr>
                <td>{ledgerLink(a.accno, `${a.accno} ${a.description}`)}</td>
                <td class="num">{n(a.amount)}</td>
              </tr>
            ))}
          </>
        ));
      if (p.report === 'income_statement') {
        return <AmountTable caption={caption}>{itemRows((data.or as { items: OrItem[] }).items)}</AmountTable>;
      }
      const or = data.or as { assets: OrSide; liabilities_and_equity: OrSide };
      return (
        <AmountTable caption={caption}>
          {[or.assets, or.liabilities_and_equity].map((side) => (
            <>
              <tr>
                <th scope="rowgroup" colspan={2}>
                  {side.label}
                </th>
              </tr>
              {side.groups.map((g) => (
                <>
                  {itemRows(g.items)}
                  <LabelledAmount label={`${g.number} ${g.label}`} amount={n(g.total)} />
                </>
              ))}
              <LabelledAmount label={side.label} amount={n(side.total)} />
            </>
          ))}
        </AmountTable>
      );
    }
    const accountRows = (s: Section, label: string, credit = false) => (
      <>
        <tr>
          <th scope="rowgroup" colspan={2}>
            {label}
          </th>
        </tr>
        {s.accounts.map((a) => (
          <tr>
            <td>{ledgerLink(a.accno, `${a.accno} ${a.description}`)}</td>
            <td class="num">{credit ? turned(a.amount) : n(a.amount)}</td>
          </tr>
        ))}
      </>
    );
    const sectionRows = (s: Section, label: string, total: string, credit = false) => (
      <>
        {accountRows(s, label, credit)}
        <LabelledAmount label={total} amount={credit ? turned(s.total) : n(s.total)} />
      </>
    );
    if (p.report === 'trial_balance') {
      const accounts = data.accounts as {
        accno: string;
        description: string;
        opening: number;
        debit: number;
        credit: number;
        closing: number;
      }[];
      const totals = data.totals as Record<string, number>;
      return (
        <table id="report-table">
          <caption>{tr('app.reports.trialCaption', { from, to, currency: String(data.currency) })}</caption>
          <ColumnHeads
            columns={[
              tr('app.common.account'),
              ...[
                tr('app.reports.opening'),
                tr('app.common.debit'),
                tr('app.common.credit'),
                tr('app.reports.closing'),
              ].map(numeric),
            ]}
          />
          <tbody>
            {accounts.map((a) => (
              <tr data-account={a.accno}>
                <td>{ledgerLink(a.accno, `${a.accno} ${a.description}`)}</td>
                <td class="num">{n(a.opening)}</td>
                <td class="num">{n(a.debit)}</td>
                <td class="num">{n(a.credit)}</td>
                <td class="num">{n(a.closing)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{tr('app.common.total')}</th>
              <td class="num">{n(totals.opening)}</td>
              <td class="num">{n(totals.debit)}</td>
              <td class="num">{n(totals.credit)}</td>
              <td class="num">{n(totals.closing)}</td>
            </tr>
          </tfoot>
        </table>
      );
    }
    if (p.report === 'income_statement') {
      return (
        <AmountTable caption={tr('app.reports.incomeCaption', { from, to, currency: String(data.currency) })}>
          {sectionRows(data.income as Section, tr('app.reports.income'), tr('app.reports.totalIncome'), true)}
          {sectionRows(data.expenses as Section, tr('app.reports.expenses'), tr('app.reports.totalExpenses'))}
          <LabelledAmount
            label={tr(Number(data.net_income) < 0 ? 'app.reports.loss' : 'app.reports.profit')}
            amount={n(data.net_income)}
            id="net-income"
          />
        </AmountTable>
      );
    }
    if (p.report === 'balance_sheet') {
      const equity = data.equity as Section & { current_year_result: number; earlier_years_result: number };
      return (
        <AmountTable caption={tr('app.reports.balanceCaption', { date: to, currency: String(data.currency) })}>
          {sectionRows(data.assets as Section, tr('app.reports.assets'), tr('app.reports.totalAssets'))}
          {sectionRows(
            data.liabilities as Section,
            tr('app.reports.liabilities'),
            tr('app.reports.totalLiabilities'),
            true,
          )}
          {accountRows(equity, tr('app.reports.equity'), true)}
          <tr>
            <td>{tr('app.reports.yearResult')}</td>
            <td class="num" id="year-result">
              {turned(equity.current_year_result)}
            </td>
          </tr>
          <tr>
            <td>{tr('app.reports.earlierResult')}</td>
            <td class="num">{turned(equity.earlier_years_result)}</td>
          </tr>
          <LabelledAmount label={tr('app.reports.totalEquity')} amount={turned(equity.total)} />
          <LabelledAmount
            label={tr('app.reports.totalLiabilitiesEquity')}
            // the ledger answers this total as the balance of the assets it equals: positive already
            amount={n(data.total_liabilities_and_equity)}
          />
        </AmountTable>
      );
    }
    const codes = data.codes as {
      code: string | null;
      description: string | null;
      account: string;
      rate: number | null;
      side: string;
      base: number;
      tax: number;
    }[];
    const output = data.output as { base: number; tax: number };
    const input = data.input as { base: number; tax: number };
    return (
      <table id="report-table">
        <caption>{tr('app.reports.vatCaption', { from, to, currency: String(data.currency) })}</caption>
        <ColumnHeads
          columns={[
            tr('app.reports.taxCode'),
            tr('app.reports.side'),
            ...[tr('app.common.rate'), tr('app.reports.base'), tr('app.common.tax')].map(numeric),
          ]}
        />
        <tbody>
          {codes.map((c) => (
            <tr>
              <td>{ledgerLink(c.account, `${c.code ?? '—'} ${c.description ?? ''} (${c.account})`)}</td>
              <td>{c.side}</td>
              <td class="num">{c.rate === null ? '' : `${(c.rate * 100).toFixed(1)} %`}</td>
              <td class="num">{n(c.base)}</td>
              <td class="num">{n(c.tax)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colspan={3}>
              {tr('app.reports.outputTax')}
            </th>
            <td class="num">{n(output.base)}</td>
            <td class="num">{n(output.tax)}</td>
          </tr>
          <tr>
            <th scope="row" colspan={3}>
              {tr('app.reports.inputTax')}
            </th>
            <td class="num">{n(input.base)}</td>
            <td class="num">{n(input.tax)}</td>
          </tr>
          <tr>
            <th scope="row" colspan={4}>
              {tr('app.reports.netDue')}
            </th>
            <td class="num">{n(data.net_due)}</td>
          </tr>
        </tfoot>
      </table>
    );
  }

  router.get('/books/:dataset/reports', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const asked = periodOf(ctx);
    const answer = await page.call('GET', `/reports/${asked.report}?${reportQuery(asked)}`);
    const p = answered(asked, answer.body);
    const base = ENTRY.path(page.company.dataset);
    const download = (format: 'csv' | 'pdf') =>
      `${base}/download?report=${p.report}&from=${p.from}&to=${p.to}${p.or ? '&layout=or' : ''}&format=${format}`;
    await renderPage(
      ctx,
      answer.status === 200 ? 200 : 422,
      { title: title(), ...page, current: base },
      <>
        <PeriodForm p={p} />
        <h2>{reportName(p.report)}</h2>
        {p.report === 'income_statement' || p.report === 'balance_sheet' ? (
          <p class="hint">{tr('app.reports.signs')}</p>
        ) : null}
        <p>
          <a class="button secondary" href={download('csv')}>
            {tr('app.reports.csv')}
          </a>
          <a class="button secondary" href={download('pdf')}>
            {tr('app.reports.pdf')}
          </a>
        </p>
        {answer.status === 200 ? (
          <div class="table-wrap">{body(page, p, answer.body as Record<string, unknown>)}</div>
        ) : (
          <Notice kind="error" id="refusal">
            {ledgerError(answer).message}
          </Notice>
        )}
      </>,
    );
  });

  router.get('/books/:dataset/reports/download', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const mediaType = ctx.query.format === 'pdf' ? 'application/pdf' : 'text/csv';
    const asked = periodOf(ctx);
    // the statements' PDF is the fiduciary's: always the law's layout, its signs positive (docs/app.md)
    const statement = asked.report === 'income_statement' || asked.report === 'balance_sheet';
    const p = mediaType === 'application/pdf' && statement ? { ...asked, or: true } : asked;
    const answer = await page.call('GET', `/reports/${p.report}?${reportQuery(p)}`, undefined, { accept: mediaType });
    if (answer.status !== 200) {
      const props = { title: title(), ...page, current: ENTRY.path(page.company.dataset) };
      return renderErrorPage(ctx, 422, props, ledgerError(answer).message);
    }
    const name =
      `${p.report}-${p.report === 'balance_sheet' ? p.to : `${p.from}-${p.to}`}.` +
      `${mediaType === 'text/csv' ? 'csv' : 'pdf'}`;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.type = mediaType;
    ctx.body = answer.file ? answer.file.data : String(answer.body ?? '');
  });

  router.get('/books/:dataset/reports/ledger', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const asked = periodOf(ctx);
    // the report's links name `from`; a bare address reads the calendar year to date
    const p = asked.from ? asked : { ...asked, from: `${asked.to.slice(0, 4)}-01-01` };
    const account = String(ctx.query.account ?? '');
    const base = ENTRY.path(page.company.dataset);
    const read = ACCNO.test(account)
      ? `/gl/ledger?account=${encodeURIComponent(account)}&from=${p.from}&to=${p.to}&limit=1000`
      : undefined;
    const props = { title: title(), ...page, current: base };
    const l = (await readOr404(ctx, page, props, read, tr('app.reports.noSuchAccount'))) as LedgerLines | undefined;
    if (!l) return;
    await renderPage(
      ctx,
      200,
      { title: tr('app.reports.accountTitle', { accno: l.account, name: l.description }), ...page, current: base },
      <>
        <p>
          <a href={`${base}?report=trial_balance&from=${p.from}&to=${p.to}`}>{tr('app.reports.back')}</a>
        </p>
        <div class="table-wrap">
          <table id="ledger-lines">
            <caption>{tr('app.reports.ledgerCaption', { from: day(p.from), to: day(p.to) })}</caption>
            <ColumnHeads
              columns={[
                tr('app.common.date'),
                tr('app.reports.source'),
                tr('app.common.description'),
                ...[tr('app.common.debit'), tr('app.common.credit'), tr('app.common.balance')].map(numeric),
              ]}
            />
            <tbody>
              <tr>
                <td>{day(p.from)}</td>
                <td colspan={4}>{tr('app.reports.openingBalance')}</td>
                <td class="num">{swissAmount(l.opening)}</td>
              </tr>
              {l.lines.map((x) => {
                const href = sourceHref(page.company.dataset, x.source);
                const label = `${x.source.kind.replace('_', ' ')} ${x.source.number ?? x.source.id}`;
                return (
                  <tr>
                    <td>{day(x.date)}</td>
                    <td>{href ? <a href={href}>{label}</a> : label}</td>
                    <td>{x.description ?? ''}</td>
                    <td class="num">{x.debit ? swissAmount(x.debit) : ''}</td>
                    <td class="num">{x.credit ? swissAmount(x.credit) : ''}</td>
                    <td class="num">{swissAmount(x.balance)}</td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colspan={3}>
                  {tr('app.reports.period')}
                </th>
                <td class="num">{swissAmount(l.debit)}</td>
                <td class="num">{swissAmount(l.credit)}</td>
                <td class="num">{swissAmount(l.closing)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </>,
    );
  });
}
