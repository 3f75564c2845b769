/**
 * Books → Reports (`/books/{dataset}/reports`): trial balance, income statement, balance sheet
 * and VAT report for a chosen period (a plain GET form), each account drilling down to its
 * ledger lines (`/books/{dataset}/reports/ledger`) and from there to the source documents;
 * the same report as CSV or PDF (the ledger renders both; the gateway passes the file on).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { contracts, ResponseOf } from '@ledger/shared';
import type { Child } from 'hono/jsx';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, readOr404 } from './access.tsx';
import { ColumnHeads, NAV, Notice, numeric, renderErrorPage, renderPage, swissAmount } from './ui.tsx';

const REPORTS = {
  trial_balance: 'Trial balance',
  income_statement: 'Income statement',
  balance_sheet: 'Balance sheet',
  vat: 'VAT report',
} as const;
type ReportName = keyof typeof REPORTS;

const TITLE = 'Books → Reports';
const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.label === 'Reports')!;
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

/** An account's ledger lines, as the ledger answers them. */
type LedgerLines = ResponseOf<typeof contracts.getLedger>;

interface Period {
  report: ReportName;
  from: string;
  to: string;
}

/** The period of the query, defaulting to this year up to today. */
function periodOf(ctx: Context): Period {
  const today = new Date().toISOString().slice(0, 10);
  const report = (String(ctx.query.report ?? '') in REPORTS ? String(ctx.query.report) : 'trial_balance') as ReportName;
  const to = DATE.test(String(ctx.query.to ?? '')) ? String(ctx.query.to) : today;
  const from = DATE.test(String(ctx.query.from ?? '')) ? String(ctx.query.from) : `${to.slice(0, 4)}-01-01`;
  return { report, from, to };
}

/** The ledger query of a report: the balance sheet is at a date (`to`), the others for a period. */
const reportQuery = (p: Period) => (p.report === 'balance_sheet' ? `date=${p.to}` : `from=${p.from}&to=${p.to}`);

/** Where a ledger line's source document is shown in the app (AR/AP documents on their page). */
function sourceHref(dataset: string, source: { kind: string; id: number }): string | undefined {
  const vc = source.kind.startsWith('vendor_')
    ? 'vendor'
    : source.kind.startsWith('customer_')
      ? 'customer'
      : undefined;
  return vc ? `/books/${dataset}/workstation/${vc}/${source.id}` : undefined;
}

/** A report of one amount per account (income statement, balance sheet): `children` are its rows. */
function AmountTable({ caption, children }: { caption: Child; children: Child }) {
  return (
    <table id="report-table">
      <caption>{caption}</caption>
      <ColumnHeads columns={['Account', numeric('Amount')]} />
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
  const open = (ctx: Context) => access.companyPage(ctx, TITLE, 'Reports need the reports permission.', ENTRY.allowed);

  function PeriodForm({ p }: { p: Period }) {
    return (
      <form method="get" id="period">
        <label for="report">Report</label>
        <select id="report" name="report">
          {(Object.keys(REPORTS) as ReportName[]).map((r) => (
            <option value={r} selected={r === p.report}>
              {REPORTS[r]}
            </option>
          ))}
        </select>
        <label for="from">From (not used by the balance sheet)</label>
        <input type="date" id="from" name="from" value={p.from} />
        <label for="to">To (the balance sheet's date)</label>
        <input type="date" id="to" name="to" value={p.to} />
        <p>
          <button type="submit">Show</button>
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
    const accountRows = (s: Section, label: string) => (
      <>
        <tr>
          <th scope="rowgroup" colspan={2}>
            {label}
          </th>
        </tr>
        {s.accounts.map((a) => (
          <tr>
            <td>{ledgerLink(a.accno, `${a.accno} ${a.description}`)}</td>
            <td class="num">{n(a.amount)}</td>
          </tr>
        ))}
      </>
    );
    const sectionRows = (s: Section, label: string) => (
      <>
        {accountRows(s, label)}
        <LabelledAmount label={`Total ${label.toLowerCase()}`} amount={n(s.total)} />
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
          <caption>
            Trial balance {p.from} – {p.to} ({String(data.currency)})
          </caption>
          <ColumnHeads columns={['Account', ...['Opening', 'Debit', 'Credit', 'Closing'].map(numeric)]} />
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
              <th scope="row">Total</th>
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
        <AmountTable
          caption={`Income statement ${p.from} – ${p.to} (${String(data.currency)}; ledger signs: revenue negative)`}
        >
          {sectionRows(data.income as Section, 'Income')}
          {sectionRows(data.expenses as Section, 'Expenses')}
          <LabelledAmount label="Net income (a profit is positive)" amount={n(data.net_income)} id="net-income" />
        </AmountTable>
      );
    }
    if (p.report === 'balance_sheet') {
      const equity = data.equity as Section & { current_year_result: number; earlier_years_result: number };
      return (
        <AmountTable
          caption={`Balance sheet at ${p.to} (${String(data.currency)}; ledger signs: liabilities and equity negative)`}
        >
          {sectionRows(data.assets as Section, 'Assets')}
          {sectionRows(data.liabilities as Section, 'Liabilities')}
          {accountRows(equity, 'Equity')}
          <tr>
            <td>Current year's result</td>
            <td class="num">{n(equity.current_year_result)}</td>
          </tr>
          <tr>
            <td>Earlier years' result not closed</td>
            <td class="num">{n(equity.earlier_years_result)}</td>
          </tr>
          <LabelledAmount label="Total equity" amount={n(equity.total)} />
          <LabelledAmount label="Total assets" amount={n(data.total_assets)} />
          <LabelledAmount label="Total liabilities and equity" amount={n(data.total_liabilities_and_equity)} />
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
        <caption>
          VAT report {p.from} – {p.to} ({String(data.currency)})
        </caption>
        <ColumnHeads columns={['Tax code', 'Side', ...['Rate', 'Base', 'Tax'].map(numeric)]} />
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
              Output tax
            </th>
            <td class="num">{n(output.base)}</td>
            <td class="num">{n(output.tax)}</td>
          </tr>
          <tr>
            <th scope="row" colspan={3}>
              Input tax
            </th>
            <td class="num">{n(input.base)}</td>
            <td class="num">{n(input.tax)}</td>
          </tr>
          <tr>
            <th scope="row" colspan={4}>
              Net due (a credit when negative)
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
    const p = periodOf(ctx);
    const answer = await page.call('GET', `/reports/${p.report}?${reportQuery(p)}`);
    const base = ENTRY.path(page.company.dataset);
    const download = (format: 'csv' | 'pdf') =>
      `${base}/download?report=${p.report}&from=${p.from}&to=${p.to}&format=${format}`;
    await renderPage(
      ctx,
      answer.status === 200 ? 200 : 422,
      { title: TITLE, ...page, current: base },
      <>
        <PeriodForm p={p} />
        <h2>{REPORTS[p.report]}</h2>
        <p>
          <a class="button secondary" href={download('csv')}>
            Download CSV
          </a>
          <a class="button secondary" href={download('pdf')}>
            Download PDF
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
    const p = periodOf(ctx);
    const mediaType = ctx.query.format === 'pdf' ? 'application/pdf' : 'text/csv';
    const answer = await page.call('GET', `/reports/${p.report}?${reportQuery(p)}`, undefined, { accept: mediaType });
    if (answer.status !== 200) {
      const props = { title: TITLE, ...page, current: ENTRY.path(page.company.dataset) };
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
    const p = periodOf(ctx);
    const account = String(ctx.query.account ?? '');
    const base = ENTRY.path(page.company.dataset);
    const read = ACCNO.test(account)
      ? `/gl/ledger?account=${encodeURIComponent(account)}&from=${p.from}&to=${p.to}&limit=1000`
      : undefined;
    const l = (await readOr404(ctx, page, { title: TITLE, ...page, current: base }, read, 'No such account.')) as
      | LedgerLines
      | undefined;
    if (!l) return;
    await renderPage(
      ctx,
      200,
      { title: `Account ${l.account} ${l.description}`, ...page, current: base },
      <>
        <p>
          <a href={`${base}?report=trial_balance&from=${p.from}&to=${p.to}`}>← Reports</a>
        </p>
        <div class="table-wrap">
          <table id="ledger-lines">
            <caption>
              Ledger lines {p.from} – {p.to}
            </caption>
            <ColumnHeads
              columns={['Date', 'Source document', 'Description', ...['Debit', 'Credit', 'Balance'].map(numeric)]}
            />
            <tbody>
              <tr>
                <td>{p.from}</td>
                <td colspan={4}>Opening balance</td>
                <td class="num">{swissAmount(l.opening)}</td>
              </tr>
              {l.lines.map((x) => {
                const href = sourceHref(page.company.dataset, x.source);
                const label = `${x.source.kind.replace('_', ' ')} ${x.source.number ?? x.source.id}`;
                return (
                  <tr>
                    <td>{x.date}</td>
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
                  Period
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
