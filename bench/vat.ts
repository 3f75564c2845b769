/**
 * VAT return benchmark (issue 31, docs/vat.md): one real ledger (its own process) on a
 * throw-away Postgres database with one company holding a quarter of 100,000 posted ledger
 * lines, generated in SQL: 36,400 AR/AP documents in Q1 2025 (sales at 8.1 % and 2.6 %, exports,
 * purchases at 8.1 %), each one line with its tax and control ledger lines.
 *
 * Over HTTP, one request at a time: POST /reports/vat/returns for the quarter (collects and
 * freezes the lines, computes the figures), 1 warm-up and BENCH_RUNS (default 5) timed
 * requests, each draft deleted before the next (not timed). Target: ≤ 2 s (printed, never
 * asserted). Checks that 399 equals the output tax booked.
 *
 * Writes bench/results/vat-<time>.json. Env: BENCH_VAT_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/ledger_bench_vat; dropped and re-created), BENCH_RUNS.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, percentile, startLedgerProcess } from './support.ts';
import { createDb, type Db } from '../ledger-service/src/db/knex.ts';

const DB_URL = process.env.BENCH_VAT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_vat';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DOCUMENTS = 36_400;
const TARGET_MS = 2000;

async function setup(db: Db, dataDir: string) {
  const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  const t0 = performance.now();
  const id = async (accno: string) =>
    Number(((await db('accounts').where({ company_id: company.id, accno }).first('id')) as { id: number }).id);
  const [ar, ap, revenue, goods, expense, out, outReduced, exportCode, input] = await Promise.all(
    ['1100', '2000', '3400', '3000', '4000', '2200', '2201', '2205', '1170'].map(id),
  );
  const party = async (vc: 'vendor' | 'customer') =>
    Number(
      (
        (await db('parties')
          .insert({ company_id: company.id, vc, number: `${vc}-bench`, name: `Bench ${vc}` })
          .returning('id')) as { id: number }[]
      )[0]!.id,
    );
  const customer = await party('customer');
  const vendor = await party('vendor');
  // document g: g % 4 = 0 a purchase, 1 a sale at 8.1 %, 2 a sale at 2.6 %, 3 an export
  await db.raw(
    `insert into arap_transactions (company_id, vc, party_id, inv_number, inv_date, currency, exchangerate,
       record_account_id, status, net_amount, tax_amount, amount, posted_at)
     select ?, case when g % 4 = 0 then 'vendor' else 'customer' end,
            case when g % 4 = 0 then ?::bigint else ?::bigint end, 'B-' || g, date '2025-01-01' + (g % 90), 'CHF', 1,
            case when g % 4 = 0 then ?::bigint else ?::bigint end, 'posted',
            100 + g % 900, 0, 0, now()
       from generate_series(1, ?) g`,
    [company.id, vendor, customer, ap, ar, DOCUMENTS],
  );
  await db.raw(
    `insert into arap_lines (company_id, transaction_id, position, account_id, amount, tax_account_id, tax_rate,
       tax_amount, net)
     select t.company_id, t.id, 1,
            case when t.vc = 'vendor' then ?::bigint when n % 4 = 3 then ?::bigint else ?::bigint end, t.net_amount,
            r.account_id, r.rate, round(t.net_amount * r.rate, 2), t.net_amount
       from arap_transactions t
      cross join lateral (select substr(t.inv_number, 3)::int as n) x
      cross join lateral (select case when t.vc = 'vendor' then ?::bigint when n % 4 = 1 then ?::bigint
                                      when n % 4 = 2 then ?::bigint else ?::bigint end as account_id,
                                 case when n % 4 = 2 then 0.026 when n % 4 = 3 then 0 else 0.081 end as rate) r
      where t.company_id = ?`,
    [expense, goods, revenue, input, out, outReduced, exportCode, company.id],
  );
  await db.raw(
    `update arap_transactions t set tax_amount = l.tax_amount, amount = l.net + l.tax_amount
       from arap_lines l where l.transaction_id = t.id and t.company_id = ?`,
    [company.id],
  );
  // three ledger lines per document: the line, its tax (none when zero), the control account
  await db.raw(
    `insert into ledger_entries (company_id, transaction_id, account_id, date, amount, fx_amount, currency, kind)
     select t.company_id, t.id, e.account_id, t.inv_date, e.amount, e.amount, 'CHF', e.kind
       from arap_transactions t join arap_lines l on l.transaction_id = t.id
      cross join lateral (select case when t.vc = 'vendor' then 1 else -1 end as sign) s
      cross join lateral (values (l.account_id, s.sign * l.net, 'amount'),
                                 (l.tax_account_id, s.sign * l.tax_amount, 'tax'),
                                 (t.record_account_id, -s.sign * (l.net + l.tax_amount), 'control'))
                    as e(account_id, amount, kind)
      where t.company_id = ? and not (e.kind = 'tax' and e.amount = 0)`,
    [company.id],
  );
  await db.raw('vacuum analyze');
  const loadSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const { rows } = (await db.raw(
    `select count(*)::int as n, -coalesce(sum(amount) filter (where kind = 'tax' and amount < 0), 0) as output
       from ledger_entries where company_id = ?`,
    [company.id],
  )) as { rows: { n: number; output: string }[] };
  return { company, apiKey, lines: rows[0]!.n, outputTax: Number(rows[0]!.output), loadSeconds };
}

export async function run(): Promise<void> {
  const started = performance.now();
  console.log(`VAT return bench: ${DB_URL}, a quarter of about 100,000 ledger lines, ${RUNS} runs`);
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-vat-'));
  const db = createDb(DB_URL, { poolMax: 2 });
  let child: Awaited<ReturnType<typeof startLedgerProcess>>['child'] | undefined;
  try {
    const { company, apiKey, lines, outputTax, loadSeconds } = await setup(db, dataDir);
    console.log(`  ${lines.toLocaleString('en')} ledger lines generated in ${loadSeconds} s`);
    const ledger = await startLedgerProcess(DB_URL, dataDir, 2);
    child = ledger.child;
    const base = `${ledger.url}/client/${company.dataset}`;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
      return res.status === 204 ? undefined : (res.json() as Promise<any>);
    };
    const samples: number[] = [];
    let figures: Record<string, number> = {};
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const r = await call('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
      if (i > 0) samples.push(performance.now() - t0);
      figures = r.figures;
      await call('DELETE', `/reports/vat/returns/${r.id}`);
    }
    if (Math.round(figures['399']! * 100) !== Math.round(outputTax * 100))
      throw new Error(`399 is ${figures['399']}, the output tax booked ${outputTax}`);
    const sorted = [...samples].sort((a, b) => a - b);
    const r = (v: number) => Math.round(v);
    const timing = { median: r(percentile(sorted, 50)), max: r(sorted.at(-1) ?? 0) };
    console.log(
      `  prepare a quarter's return: median ${timing.median} ms, max ${timing.max} ms ` +
        `(target ≤ ${TARGET_MS} ms: ${timing.max <= TARGET_MS ? 'met' : 'not met'}); 399 = ${figures['399']}`,
    );
    const result = {
      at: new Date().toISOString(),
      lines,
      load_seconds: loadSeconds,
      runs: RUNS,
      prepare_ms: timing,
      figures,
      seconds_total: Math.round((performance.now() - started) / 100) / 10,
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/vat-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written ${file.pathname} (${result.seconds_total} s)`);
  } finally {
    child?.kill('SIGTERM');
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
