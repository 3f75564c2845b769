/**
 * Batch benchmark (issue 26), two parts in one run against a real Postgres and the ledger as
 * its own process:
 *
 * 1. 10,000 journal lines (BENCH_BATCH_DOCS entries of 2 lines, in requests of up to 1,000
 *    entries) through POST /gl/transactions/batch, and the same rows (entries, lines, ledger
 *    lines, audit entries) written with COPY by psql in one transaction: lines/s of each and
 *    the ratio batch / COPY.
 * 2. One Postgres with many companies (docs/operations.md "Past one Postgres"): BENCH_COMPANIES
 *    companies each get BENCH_LINES_PER_COMPANY journal lines through the batch endpoint from
 *    4 clients at once; prints the lines/s over all of them, the database size per company,
 *    and the latency of GET /reports/trial_balance of one company (p50/p99 of 20 calls).
 * 3. AR/AP: BENCH_ARAP_DOCS posted bills of one line with input tax (3 ledger lines each) through
 *    POST /arap/transactions/vendor/batch in requests of up to 1,000, and BENCH_ARAP_SINGLE of the
 *    same bills one by one through POST /arap/transaction/vendor: documents/s of each and the ratio.
 *
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_batch; dropped
 * and re-created), BENCH_BATCH_DOCS (5000), BENCH_COMPANIES (40), BENCH_LINES_PER_COMPANY (5000),
 * BENCH_ARAP_DOCS (5000), BENCH_ARAP_SINGLE (500).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createApiKey } from '../ledger-service/src/db/apiKeys.ts';
import { addMember, createCompany } from '../ledger-service/src/db/companies.ts';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { createBenchCompany, percentile, startLedgerProcess } from './support.ts';

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_batch';
const DOCS = Number(process.env.BENCH_BATCH_DOCS ?? 5000);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 40);
const LINES_PER_COMPANY = Number(process.env.BENCH_LINES_PER_COMPANY ?? 5000);
const PER_REQUEST = 1000;
const ARAP_DOCS = Number(process.env.BENCH_ARAP_DOCS ?? 5000);
const ARAP_SINGLE = Number(process.env.BENCH_ARAP_SINGLE ?? 500);

const entry = (i: number) => ({
  transdate: `2026-${String((i % 12) + 1).padStart(2, '0')}-15`,
  description: `bench entry ${i}`,
  pending: '0',
  lines: [
    { account: '6000', debit: 100 + (i % 97) },
    { account: '1020', credit: 100 + (i % 97) },
  ],
});

async function postBatches(url: string, dataset: string, apiKey: string, docs: number): Promise<void> {
  for (let start = 0; start < docs; start += PER_REQUEST) {
    const transactions = Array.from({ length: Math.min(PER_REQUEST, docs - start) }, (_, i) => entry(start + i));
    const res = await fetch(`${url}/client/${dataset}/gl/transactions/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ transactions }),
    });
    if (res.status !== 200) throw new Error(`batch refused: ${res.status} ${await res.text()}`);
  }
}

const bill = (vendorId: number, i: number) => ({
  vendor_id: vendorId,
  invDate: `2026-${String((i % 12) + 1).padStart(2, '0')}-20`,
  description: `bench bill ${i}`,
  pending: '0',
  lines: [{ account: '6500', amount: 100 + (i % 97), taxAccount: '1170' }],
});

async function post(url: string, apiKey: string, path: string, body: unknown, status: number): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  if (res.status !== status) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Part 3: bills through the AR/AP batch and one by one; documents/s of each. */
async function arapRates(url: string, dataset: string, apiKey: string) {
  const base = `/client/${dataset}/arap`;
  const vendor = (await post(url, apiKey, `${base}/vendor`, { name: 'Bench Supplier AG' }, 201)) as { id: number };
  let t0 = performance.now();
  for (let start = 0; start < ARAP_DOCS; start += PER_REQUEST) {
    const transactions = Array.from({ length: Math.min(PER_REQUEST, ARAP_DOCS - start) }, (_, i) =>
      bill(vendor.id, start + i),
    );
    await post(url, apiKey, `${base}/transactions/vendor/batch`, { transactions }, 200);
  }
  const batchSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  for (let i = 0; i < ARAP_SINGLE; i++) await post(url, apiKey, `${base}/transaction/vendor`, bill(vendor.id, i), 201);
  const singleSeconds = (performance.now() - t0) / 1000;
  return { batch: ARAP_DOCS / batchSeconds, single: ARAP_SINGLE / singleSeconds, batchSeconds, singleSeconds };
}

const csv = (v: unknown) => (v === null ? '' : `"${String(v).replace(/"/g, '""')}"`);

/** The rows the batch endpoint writes for `docs` entries, as one psql script of COPY statements. */
async function copyScript(db: ReturnType<typeof createDb>, companyId: number, userId: number, docs: number) {
  const acc = new Map(
    (
      (await db('accounts').where({ company_id: companyId }).select('id', 'accno')) as { id: number; accno: string }[]
    ).map((a) => [a.accno, a.id]),
  );
  // ids reserved from the tables' own sequences, as the inserts would take them
  const range = async (table: string, n: number) => {
    const { rows } = await db.raw(
      `select setval(pg_get_serial_sequence(?, 'id'), nextval(pg_get_serial_sequence(?, 'id')) + ?) - ? as first`,
      [table, table, n, n],
    );
    return Number(rows[0].first);
  };
  const firstId = await range('gl_transactions', docs);
  const now = new Date().toISOString();
  const heads: string[] = [];
  const lines: string[] = [];
  const ledger: string[] = [];
  const audit: string[] = [];
  for (let i = 0; i < docs; i++) {
    const e = entry(i);
    const id = firstId + i;
    const amount = e.lines[0]!.debit!.toFixed(2);
    heads.push(
      [id, companyId, `COPY-${i + 1}`, e.transdate, e.description, 'CHF', 1, 'posted', now, userId].map(csv).join(','),
    );
    lines.push([companyId, id, 1, acc.get('6000'), null, amount, 0, amount].map(csv).join(','));
    lines.push([companyId, id, 2, acc.get('1020'), null, 0, amount, `-${amount}`].map(csv).join(','));
    ledger.push(
      [companyId, id, acc.get('6000'), e.transdate, amount, amount, 'CHF', 'journal', false].map(csv).join(','),
    );
    ledger.push(
      [companyId, id, acc.get('1020'), e.transdate, `-${amount}`, `-${amount}`, 'CHF', 'journal', false]
        .map(csv)
        .join(','),
    );
    const details = {
      reference: `COPY-${i + 1}`,
      status: 'posted',
      currency: 'CHF',
      lines: 2,
      debit: Number(amount),
      files: 0,
    };
    audit.push(
      [companyId, userId, 'api_key', null, 'bench', 'journal_entry', id, 'create_posted', JSON.stringify(details)]
        .map(csv)
        .join(','),
    );
  }
  const copy = (table: string, cols: string, rows: string[]) =>
    `copy ${table} (${cols}) from stdin with (format csv);\n${rows.join('\n')}\n\\.\n`;
  return (
    copy(
      'gl_transactions',
      'id, company_id, reference, transdate, description, currency, exchangerate, status, posted_at, created_by',
      heads,
    ) +
    copy('gl_lines', 'company_id, journal_id, position, account_id, description, debit, credit, base_amount', lines) +
    copy(
      'ledger_entries',
      'company_id, journal_id, account_id, date, amount, fx_amount, currency, kind, closing',
      ledger,
    ) +
    copy('audit_log', 'company_id, user_id, via, via_id, via_label, entity, entity_id, action, details', audit)
  );
}

export async function run(): Promise<void> {
  console.log(`batch bench: ${DB_URL}; ${DOCS} entries × 2 lines; ${COMPANIES} companies × ${LINES_PER_COMPANY} lines`);
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-batch-'));
  const db = createDb(DB_URL);
  const { company, userId, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  const { child, url } = await startLedgerProcess(DB_URL, dataDir, 8);
  try {
    await postBatches(url, company.dataset, apiKey, 200); // warm-up: JIT, pool connections, plans

    // 1. batch endpoint vs COPY, the same rows
    const lineCount = DOCS * 2;
    let t0 = performance.now();
    await postBatches(url, company.dataset, apiKey, DOCS);
    const batchSeconds = (performance.now() - t0) / 1000;
    const script = await copyScript(db, company.id, userId, DOCS);
    const file = join(dataDir, 'copy.sql');
    writeFileSync(file, script);
    t0 = performance.now();
    const psql = spawnSync('psql', ['-q', '-1', '-v', 'ON_ERROR_STOP=1', '-d', DB_URL, '-f', file], {
      encoding: 'utf8',
    });
    const copySeconds = (performance.now() - t0) / 1000;
    if (psql.status !== 0) throw new Error(`COPY failed: ${psql.stderr}`);
    const batchRate = lineCount / batchSeconds;
    const copyRate = lineCount / copySeconds;
    console.log(
      `${lineCount} journal lines via POST /gl/transactions/batch: ${batchSeconds.toFixed(2)} s, ` +
        `${batchRate.toFixed(0)} lines/s`,
    );
    console.log(
      `the same rows via COPY (psql, one transaction): ${copySeconds.toFixed(2)} s, ${copyRate.toFixed(0)} lines/s`,
    );
    console.log(`ratio batch / COPY: ${(batchRate / copyRate).toFixed(2)}`);

    // 2. many companies on one Postgres
    const companies: { dataset: string; apiKey: string }[] = [];
    for (let c = 0; c < COMPANIES; c++) {
      const co = await createCompany(db, { dataset: `bench-${c}`, name: `Bench ${c}`, currency: 'CHF' });
      await addMember(db, co.id, userId, 'owner', null);
      companies.push({ dataset: co.dataset, apiKey: (await createApiKey(db, co.id, userId, 'bench')).key });
    }
    t0 = performance.now();
    const queue = [...companies];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let co = queue.shift(); co; co = queue.shift())
          await postBatches(url, co.dataset, co.apiKey, LINES_PER_COMPANY / 2);
      }),
    );
    const loadSeconds = (performance.now() - t0) / 1000;
    const totalLines = COMPANIES * LINES_PER_COMPANY;
    const size = Number((await db.raw('select pg_database_size(current_database()) as s')).rows[0].s);
    const perCompanyMb = size / (COMPANIES + 1) / 1024 / 1024;
    const latencies: number[] = [];
    const one = companies[0]!;
    for (let i = 0; i < 21; i++) {
      const started = performance.now();
      const res = await fetch(`${url}/client/${one.dataset}/reports/trial_balance?from=2026-01-01&to=2026-12-31`, {
        headers: { 'x-api-key': one.apiKey },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`trial balance: ${res.status}`);
      if (i > 0) latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `${COMPANIES} companies × ${LINES_PER_COMPANY} lines from 4 clients: ` +
        `${(totalLines / loadSeconds).toFixed(0)} lines/s ` +
        `(${(totalLines / 2 / loadSeconds).toFixed(0)} postings/s); database ${(size / 1024 / 1024).toFixed(0)} MB, ` +
        `${perCompanyMb.toFixed(2)} MB per company`,
    );
    console.log(
      `trial balance of one company (${LINES_PER_COMPANY} lines): p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );

    // 3. AR/AP documents: batch vs one by one (in the first company, after the journal parts)
    const arap = await arapRates(url, company.dataset, apiKey);
    console.log(
      `${ARAP_DOCS} bills via POST /arap/transactions/vendor/batch: ${arap.batchSeconds.toFixed(2)} s, ` +
        `${arap.batch.toFixed(0)} documents/s; ${ARAP_SINGLE} one by one: ${arap.singleSeconds.toFixed(2)} s, ` +
        `${arap.single.toFixed(0)} documents/s; ratio ${(arap.batch / arap.single).toFixed(1)}`,
    );

    const result = {
      benchmark: 'batch: POST /gl/transactions/batch vs COPY; many companies on one Postgres; AR/AP batch',
      at: new Date().toISOString(),
      node: process.version,
      batch_vs_copy: {
        lines: lineCount,
        batch_lines_per_s: batchRate,
        copy_lines_per_s: copyRate,
        ratio: batchRate / copyRate,
      },
      one_postgres: {
        companies: COMPANIES,
        lines_per_company: LINES_PER_COMPANY,
        lines_per_s: totalLines / loadSeconds,
        database_mb: size / 1024 / 1024,
        mb_per_company: perCompanyMb,
        trial_balance_p50_ms: percentile(latencies, 50),
        trial_balance_p99_ms: percentile(latencies, 99),
      },
      arap: {
        documents: ARAP_DOCS,
        batch_documents_per_s: arap.batch,
        single_documents: ARAP_SINGLE,
        single_documents_per_s: arap.single,
        ratio: arap.batch / arap.single,
      },
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const out = new URL(`./results/batch-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written ${out.pathname}`);
  } finally {
    child.kill('SIGTERM');
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
