/**
 * Reports benchmark (issue 11): one real ledger (its own process, bench/ledgerServer.ts) on a
 * throw-away Postgres database with one company holding 1,000,000 posted ledger lines,
 * generated in SQL: 500,000 posted journal entries of two lines each over 2023–2025 on the
 * chart's accounts, one entry in three debiting the bank account 1020 (the busy account), inserted
 * in statements of 100,000 lines through the ledger_balances triggers of migration 011.
 *
 * Over HTTP, one request at a time, 3 warm-up and BENCH_RUNS (default 20) timed requests
 * each: GET /reports/trial_balance (2025-01-01 to 2025-11-20: whole months and a partial
 * one), /reports/income_statement (same period), /reports/balance_sheet (2025-11-20) and
 * GET /gl/ledger for 1020 in March 2025 (the journal module's endpoint). In the same run,
 * the same figures as a plain `SELECT ... GROUP BY` over ledger_entries in a tenant
 * transaction (the app's role and RLS, no HTTP), and the ratio report / plain. The first
 * trial balance after loading is timed on its own: it merges the trigger's delta rows.
 * Targets: trial balance ≤ 150 ms p95 and ≤ 1.5 × the plain query (printed, never asserted).
 *
 * Writes bench/results/reports-<time>.json. Env: BENCH_REPORTS_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/ledger_bench_reports; dropped and re-created), BENCH_RUNS.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, percentile, startLedgerProcess } from './support.ts';
import { createDb, withTenant, type Db } from '../ledger-service/src/db/knex.ts';

const DB_URL = process.env.BENCH_REPORTS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_reports';
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const LINES = 1_000_000;
const BATCH = 100_000;
const TB_TARGET_MS = 150;
const RATIO_TARGET = 1.5;
const FROM = '2025-01-01';
const TO = '2025-11-20';
const BUSY = '1020';

interface Timing {
  median: number;
  p95: number;
  max: number;
}

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 10) / 10;
  return { median: r(percentile(sorted, 50)), p95: r(percentile(sorted, 95)), max: r(sorted.at(-1) ?? 0) };
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return timing(samples);
}

async function setup(db: Db, dataDir: string) {
  const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);

  // the lines, in SQL: journal headers, then two lines per entry (amount and its negation)
  const t0 = performance.now();
  const entries = LINES / 2;
  await db.raw(
    `insert into gl_transactions (company_id, reference, transdate, currency, exchangerate, status, posted_at,
       description)
     select ?, 'GL-' || lpad(g::text, 7, '0'), date '2023-01-01' + (g % 1095), 'CHF', 1, 'posted', now(),
       'bench entry ' || g
       from generate_series(1, ?) g`,
    [company.id, entries],
  );
  const accounts = (
    (await db('accounts')
      .where({ company_id: company.id })
      .whereNot({ accno: BUSY })
      .whereNotIn('accno', ['1100', '2000'])
      .select('id')) as { id: number }[]
  ).map((a) => a.id);
  const busy = ((await db('accounts').where({ company_id: company.id, accno: BUSY }).first('id')) as { id: number }).id;
  const first = (
    (await db('gl_transactions').where({ company_id: company.id }).min({ id: 'id' }).first()) as { id: number }
  ).id;
  for (let from = 0; from < entries; from += BATCH / 2) {
    await db.raw(
      `insert into ledger_entries (company_id, journal_id, account_id, date, amount, fx_amount, currency, kind)
       select g.company_id, g.id, l.account_id, g.transdate, l.amount, l.amount, 'CHF', 'journal'
         from gl_transactions g
        cross join lateral (select (((g.id * 7919) % 100000) + 100)::numeric / 100 as amount) a
        cross join lateral (values
          (case when g.id % 3 = 0 then ?::bigint else (?::bigint[])[1 + (g.id % ?)] end, a.amount),
          ((?::bigint[])[1 + ((g.id * 13) % ?)], -a.amount)) as l(account_id, amount)
        where g.company_id = ? and g.id >= ? and g.id < ?`,
      [busy, accounts, accounts.length, accounts, accounts.length, company.id, first + from, first + from + BATCH / 2],
    );
  }
  await db.raw('vacuum analyze ledger_entries');
  await db.raw('vacuum analyze ledger_balances');
  const loadSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const { rows } = (await db.raw(`select count(*)::int as n from ledger_entries where company_id = ?`, [
    company.id,
  ])) as { rows: { n: number }[] };
  return { company, apiKey, lines: rows[0]!.n, loadSeconds };
}

/** The same figures as the reports, as plain aggregates over ledger_entries (tenant transaction, RLS). */
function plainQueries(db: Db, companyId: number) {
  const tenant = <T>(sql: string, bindings: readonly unknown[]) =>
    withTenant(db, companyId, async (tx) => ((await tx.raw(sql, bindings as never)) as { rows: T[] }).rows);
  return {
    trialBalance: () =>
      tenant(
        `select a.accno, s.opening, s.debit, s.credit from (
         select account_id, sum(amount) filter (where date < ?) as opening,
                sum(amount) filter (where date >= ? and amount > 0) as debit, sum(amount) filter (where date >= ?
                  and amount < 0) as credit
           from ledger_entries where date <= ? group by account_id) s join accounts a on a.id = s.account_id
             order by a.accno`,
        [FROM, FROM, FROM, TO],
      ),
    incomeStatement: () =>
      tenant(
        `select a.accno, sum(e.amount) from ledger_entries e join accounts a on a.id = e.account_id
        where e.date between ? and ? and not e.closing and a.category in ('I', 'E') group by a.accno order by a.accno`,
        [FROM, TO],
      ),
    balanceSheet: () =>
      tenant(
        `select a.accno, s.before, s.current from (
         select account_id, sum(amount) filter (where date < ?) as before,
           sum(amount) filter (where date >= ?) as current
           from ledger_entries where date <= ? group by account_id) s join accounts a on a.id = s.account_id
             order by a.accno`,
        [FROM, FROM, TO],
      ),
    ledger: () =>
      tenant(
        `select (select sum(amount) from ledger_entries where account_id = a.id and date < ?) as opening,
              (select json_agg(x) from (select id, date, amount, sum(amount) over (order by date, id) as running
                                           from ledger_entries where account_id = a.id and date between ? and ?
                                             order by date, id limit 100) x) as lines
         from accounts a where a.accno = ?`,
        ['2025-03-01', '2025-03-01', '2025-03-31', BUSY],
      ),
  };
}

export async function run(): Promise<void> {
  const started = performance.now();
  console.log(`reports bench: ${DB_URL}, ${LINES.toLocaleString('en')} ledger lines, ${RUNS} runs`);
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-reports-'));
  const db = createDb(DB_URL, { poolMax: 2 });
  let child: Awaited<ReturnType<typeof startLedgerProcess>>['child'] | undefined;
  try {
    const { company, apiKey, lines, loadSeconds } = await setup(db, dataDir);
    console.log(`  ${lines.toLocaleString('en')} lines generated in ${loadSeconds} s`);
    const ledger = await startLedgerProcess(DB_URL, dataDir, 4);
    child = ledger.child;
    const base = `${ledger.url}/client/${company.dataset}`;
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': apiKey } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
      return res.json() as Promise<any>;
    };

    const tbPath = `/reports/trial_balance?from=${FROM}&to=${TO}`;
    const c0 = performance.now();
    const tb = await get(tbPath);
    const firstMs = Math.round((performance.now() - c0) * 10) / 10;
    if (tb.totals.closing !== 0 || tb.totals.opening !== 0)
      throw new Error(`the trial balance does not balance: ${JSON.stringify(tb.totals)}`);

    const plain = plainQueries(db, company.id);
    const reports = [
      { name: 'trial balance', http: () => get(tbPath), plain: plain.trialBalance },
      {
        name: 'income statement',
        http: () => get(`/reports/income_statement?from=${FROM}&to=${TO}`),
        plain: plain.incomeStatement,
      },
      { name: 'balance sheet', http: () => get(`/reports/balance_sheet?date=${TO}`), plain: plain.balanceSheet },
      {
        name: `gl/ledger ${BUSY}, March`,
        http: () => get(`/gl/ledger?account=${BUSY}&from=2025-03-01&to=2025-03-31`),
        plain: plain.ledger,
      },
    ];
    const figures = [];
    for (const r of reports) {
      // alternating, so both see the same machine load
      const httpTiming = await timed(RUNS, r.http);
      const plainTiming = await timed(RUNS, r.plain);
      figures.push({
        report: r.name,
        http: httpTiming,
        plain: plainTiming,
        ratio_p95: Math.round((httpTiming.p95 / plainTiming.p95) * 100) / 100,
      });
    }

    console.log(`  first trial balance after loading (merges the delta rows): ${firstMs} ms`);
    console.log('  report                 HTTP median / p95 ms    plain SELECT median / p95 ms   ratio (p95)');
    for (const f of figures) {
      console.log(
        `  ${f.report.padEnd(22)} ${`${f.http.median} / ${f.http.p95}`.padEnd(23)} ` +
          `${`${f.plain.median} / ${f.plain.p95}`.padEnd(30)} ${f.ratio_p95}`,
      );
    }
    const t = figures[0]!;
    console.log(
      `  target trial balance ≤ ${TB_TARGET_MS} ms p95: ${t.http.p95 <= TB_TARGET_MS ? 'met' : 'not met'}; ≤ ` +
        `${RATIO_TARGET} × plain: ${t.ratio_p95 <= RATIO_TARGET ? 'met' : 'not met'}`,
    );

    const result = {
      at: new Date().toISOString(),
      lines,
      load_seconds: loadSeconds,
      first_trial_balance_ms: firstMs,
      runs: RUNS,
      figures,
      seconds_total: Math.round((performance.now() - started) / 100) / 10,
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/reports-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written ${file.pathname} (${result.seconds_total} s)`);
  } finally {
    child?.kill('SIGTERM');
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
