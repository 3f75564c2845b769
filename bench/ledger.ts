/**
 * Ledger benchmark (issue 3): POST /arap/transaction/vendor with 3 lines, tax and
 * pending "0" through the real HTTP API (autocannon) against a real Postgres, at 1, 8 and
 * 32 concurrent clients; in the same run a baseline doing the same inserts with plain SQL
 * over `pg` at the same concurrency. Prints req/s, p50, p99 and the ratio API / SQL and
 * writes bench/results/ledger-<time>.json.
 *
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench; the
 * database is dropped and re-created), BENCH_SECONDS per stage (default 6), BENCH_CLIENTS
 * (default "1,8,32").
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, type Figures, percentile, postStage, startLedgerProcess } from './support.ts';
import pg from 'pg';
import { createDb } from '../ledger-service/src/db/knex.ts';

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,8,32').split(',').map(Number);
const POOL = Math.max(...CLIENTS);

async function setupCompany(dataDir: string) {
  const db = createDb(DB_URL);
  const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  const rows = (await db('accounts').where({ company_id: company.id }).select('id', 'accno')) as { id: number; accno: string }[];
  const accounts = new Map(rows.map((a) => [a.accno, a.id]));
  await db.destroy();
  return { company, apiKey, accounts };
}

const billBody = (vendorId: number) => JSON.stringify({
  type: 'transaction',
  vendor_id: vendorId,
  invDate: '2024-06-15',
  documentNumber: 'BENCH-1',
  curr: 'CHF',
  pending: '0',
  lines: [
    { account: '6500', amount: 120.5, taxAccount: '1170', description: 'office supplies' },
    { account: '4000', amount: 80.25, taxAccount: '1171', description: 'material' },
    { account: '6000', amount: 1500, taxAccount: '1170', description: 'rent' },
  ],
});

/**
 * The same rows as one API call writes, with plain SQL in one transaction: the number from
 * the sequence, the header, 3 lines, 5 ledger lines and the audit entry.
 */
async function sqlStage(companyId: number, partyId: number, acc: Map<string, number>, connections: number, seconds: number): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: DB_URL, max: connections });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const a = (n: string) => acc.get(n)!;
  const lines = [[a('6500'), '120.50', a('1170'), '0.081', '9.76', '120.50'], [a('4000'), '80.25', a('1171'), '0.026', '2.09', '80.25'], [a('6000'), '1500.00', a('1170'), '0.081', '121.50', '1500.00']];
  const entries = [[a('6500'), '120.50'], [a('4000'), '80.25'], [a('6000'), '1500.00'], [a('1170'), '131.26'], [a('1171'), '2.09'], [a('2000'), '-1834.10']];
  const worker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const client = await pool.connect();
      try {
        await client.query('begin');
        const seq = await client.query(
          `insert into sequences (company_id, kind, next_value) values ($1, 'sql_bench', 2)
           on conflict (company_id, kind) do update set next_value = sequences.next_value + 1 returning next_value - 1 as value`, [companyId]);
        const head = await client.query(
          `insert into arap_transactions (company_id, vc, party_id, inv_number, document_number, inv_date, currency, exchangerate, record_account_id,
             taxincluded, status, net_amount, tax_amount, amount, posted_at)
           values ($1, 'vendor', $2, $3, 'BENCH-1', '2024-06-15', 'CHF', 1, $4, false, 'posted', 1700.75, 133.35, 1834.10, now()) returning id`,
          [companyId, partyId, `SQL-${seq.rows[0].value}`, a('2000')]);
        const id = head.rows[0].id;
        const lp: unknown[] = [];
        const lv = lines.map((l, i) => {
          lp.push(companyId, id, i + 1, ...l);
          const o = i * 9;
          return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8}, $${o + 9})`;
        });
        await client.query(`insert into arap_lines (company_id, transaction_id, position, account_id, amount, tax_account_id, tax_rate, tax_amount, net) values ${lv.join(', ')}`, lp);
        const ep: unknown[] = [];
        const ev = entries.map((e, i) => {
          ep.push(companyId, id, ...e);
          const o = i * 4;
          return `($${o + 1}, $${o + 2}, $${o + 3}, '2024-06-15', $${o + 4}, $${o + 4}, 'CHF', 'amount')`;
        });
        await client.query(`insert into ledger_entries (company_id, transaction_id, account_id, date, amount, fx_amount, currency, kind) values ${ev.join(', ')}`, ep);
        await client.query(`insert into audit_log (company_id, via, entity, entity_id, action, details) values ($1, 'system', 'vendor_transaction', $2, 'create_posted', $3)`,
          [companyId, String(id), JSON.stringify({ gross: '1834.10' })]);
        await client.query('commit');
        latencies.push(performance.now() - started);
      } catch (e) {
        errors++;
        await client.query('rollback').catch(() => undefined);
        if (errors === 1) console.error('baseline error:', (e as Error).message);
      } finally {
        client.release();
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  await pool.end();
  latencies.sort((x, y) => x - y);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length, errors };
}

const fmt = (n: number, d = 1) => n.toFixed(d).padStart(9);

export async function run(): Promise<void> {
  console.log(`ledger bench: ${DB_URL}, ${SECONDS}s per stage, clients ${CLIENTS.join('/')}`);
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  const { company, apiKey, accounts } = await setupCompany(dataDir);
  const { child, url } = await startLedgerProcess(DB_URL, dataDir, POOL);
  try {
    const path = `/client/${company.dataset}/arap/transaction/vendor`;
    const vendor = await fetch(`${url}/client/${company.dataset}/arap/vendor`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify({ name: 'Bench Vendor' }),
    }).then((r) => r.json() as Promise<{ id: number }>);
    const body = billBody(vendor.id);
    const check = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
    if (check.status !== 201) throw new Error(`the bench request fails: ${check.status} ${await check.text()}`);

    await postStage(url, path, apiKey, body, 8, 2); // warm-up: JIT, pool connections, plans
    await sqlStage(company.id, vendor.id, accounts, 8, 1);

    const stages = [];
    console.log(`${'clients'.padStart(7)} | ${'API req/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} | ${'SQL tx/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} | ratio`);
    for (const clients of CLIENTS) {
      const api = await postStage(url, path, apiKey, body, clients, SECONDS);
      const sql = await sqlStage(company.id, vendor.id, accounts, clients, SECONDS);
      const ratio = api.rps / sql.rps;
      stages.push({ clients, api, sql, ratio });
      console.log(`${String(clients).padStart(7)} | ${fmt(api.rps)} ${fmt(api.p50)} ${fmt(api.p99)} | ${fmt(sql.rps)} ${fmt(sql.p50)} ${fmt(sql.p99)} | ${ratio.toFixed(2)}${api.errors + sql.errors ? `  (errors: API ${api.errors}, SQL ${sql.errors})` : ''}`);
    }
    const result = {
      benchmark: 'ledger: POST /arap/transaction/vendor, 3 lines + tax, pending "0"',
      baseline: 'plain SQL over pg: sequence, header, 3 lines, 6 ledger lines, audit entry in one transaction',
      at: new Date().toISOString(),
      node: process.version,
      seconds: SECONDS,
      pool: POOL,
      stages,
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/ledger-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written ${file.pathname}`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
