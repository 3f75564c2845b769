/**
 * Ledger benchmark (issues 3 and 26), the single posting: POST /arap/transaction/vendor
 * (3 lines, tax, pending "0") and POST /gl/transactions (2 lines, pending "0", reference
 * from the sequence) through the real HTTP API (autocannon) against a real Postgres, at 1,
 * 8 and 32 concurrent clients; in the same run, stage by stage, a baseline doing the same
 * inserts with plain SQL over `pg` at the same concurrency (the same rows, events included;
 * BENCH_BASELINE_EVENTS=0: without the events). Prints req/s, p50, p99 and the
 * ratio API / SQL per endpoint and stage, and writes bench/results/ledger-<time>.json.
 *
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench; the
 * database is dropped and re-created), BENCH_SECONDS per stage (default 6), BENCH_WARMUP
 * seconds of warm-up at 8 clients before each endpoint, API and SQL alike (default 4), BENCH_CLIENTS
 * (default "1,8,32"), BENCH_ENDPOINTS (default "vendor,journal,vendor-keyed": the bill again, each request with
 * its own Idempotency-Key, as the gateway sends every write). Profiling and counting
 * statements: see ledgerServer.ts (BENCH_CPU_PROF, BENCH_COUNT_QUERIES). LEDGER_STAGE_TIMING=1: after
 * each API stage the server prints where a request's CPU and time went, stage by stage
 * (stageTiming.ts; read the one-client figures).
 * Only this part: `npx tsx bench/ledger.ts`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, type Figures, percentile, postStage, startLedgerProcess } from './support.ts';
import pg from 'pg';
import { createDb } from '../ledger-service/src/db/knex.ts';

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,8,32').split(',').map(Number);
const POOL = Math.max(...CLIENTS);
const ENDPOINTS = (process.env.BENCH_ENDPOINTS ?? 'vendor,journal,vendor-keyed').split(',');
const STAGE_TIMING = process.env.LEDGER_STAGE_TIMING === '1';

async function setupCompany(dataDir: string) {
  const db = createDb(DB_URL);
  const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  const rows = (await db('accounts').where({ company_id: company.id }).select('id', 'accno')) as {
    id: number;
    accno: string;
  }[];
  const accounts = new Map(rows.map((a) => [a.accno, a.id]));
  await db.destroy();
  return { company, apiKey, accounts };
}

const journalBody = JSON.stringify({
  transdate: '2024-06-15',
  description: 'office rent',
  pending: '0',
  lines: [
    { account: '6000', debit: 2400 },
    { account: '1020', credit: 2400 },
  ],
});

const billBody = (vendorId: number) =>
  JSON.stringify({
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

type Statements = (client: pg.PoolClient) => Promise<void>;

/** The baseline's document number: the sequence row bumped in one statement, as the ledger numbers. */
async function nextNumber(client: pg.PoolClient, companyId: number, kind: string): Promise<number> {
  const seq = await client.query<{ value: number }>(
    `insert into sequences (company_id, kind, next_value) values ($1, $2, 2)
     on conflict (company_id, kind) do update set next_value = sequences.next_value + 1
       returning next_value - 1 as value`,
    [companyId, kind],
  );
  return seq.rows[0]!.value;
}

/**
 * The baseline writes the rows the API writes, events included (BENCH_BASELINE_EVENTS=0:
 * without them, as the baseline was before the events existed, to compare runs): `count`
 * numbers from the company's event sequence (the API's own, so both number one feed), then
 * the event rows, last in the transaction as in the API.
 */
const BASELINE_EVENTS = process.env.BENCH_BASELINE_EVENTS !== '0';
const EVENTS_LABEL = BASELINE_EVENTS ? ', event number and events' : ' (no events: BENCH_BASELINE_EVENTS=0)';
const BENCH_ACTOR = JSON.stringify({ id: '1', via: 'api_key', label: 'bench', user_id: 1 });

async function insertEvents(
  client: pg.PoolClient,
  companyId: number,
  resource: { type: string; id: number; subject: string },
  events: { type: string; data: Record<string, unknown> }[],
): Promise<void> {
  if (!BASELINE_EVENTS) return;
  const seq = await client.query<{ first: number }>(
    `insert into sequences (company_id, kind, next_value) values ($1, 'event', $2 + 1)
     on conflict (company_id, kind) do update set next_value = sequences.next_value + $2
       returning next_value - $2 as first`,
    [companyId, events.length],
  );
  const first = seq.rows[0]!.first;
  const params: unknown[] = [companyId, resource.subject, resource.type, String(resource.id), BENCH_ACTOR];
  const values = events.map((e, i) => {
    params.push(first + i, e.type, JSON.stringify(e.data));
    const o = 5 + i * 3;
    return `($1, $${o + 1}, $${o + 2}, $2, $3, $4, $5, $${o + 3})`;
  });
  await client.query(
    `insert into events (company_id, seq, type, subject, resource_type, resource_id, actor, data) ` +
      `values ${values.join(', ')}`,
    params,
  );
}

/**
 * The same rows as one bill through the API, with plain SQL: the number from the sequence,
 * the header, 3 lines, 6 ledger lines, the audit entry and the two events (created, posted).
 */
function billStatements(companyId: number, partyId: number, acc: Map<string, number>): Statements {
  const a = (n: string) => acc.get(n)!;
  const lines = [
    [a('6500'), '120.50', a('1170'), '0.081', '9.76', '120.50'],
    [a('4000'), '80.25', a('1171'), '0.026', '2.09', '80.25'],
    [a('6000'), '1500.00', a('1170'), '0.081', '121.50', '1500.00'],
  ];
  const entries = [
    [a('6500'), '120.50'],
    [a('4000'), '80.25'],
    [a('6000'), '1500.00'],
    [a('1170'), '131.26'],
    [a('1171'), '2.09'],
    [a('2000'), '-1834.10'],
  ];
  return async (client) => {
    const number = await nextNumber(client, companyId, 'sql_bench');
    const head = await client.query(
      `insert into arap_transactions (company_id, vc, party_id, inv_number, document_number, inv_date, currency,
         exchangerate, record_account_id,
         taxincluded, status, net_amount, tax_amount, amount, posted_at)
       values ($1, 'vendor', $2, $3, 'BENCH-1', '2024-06-15', 'CHF', 1, $4, false, 'posted', 1700.75, 133.35,
         1834.10, now()) returning id`,
      [companyId, partyId, `SQL-${number}`, a('2000')],
    );
    const id = head.rows[0].id;
    const lp: unknown[] = [];
    const lv = lines.map((l, i) => {
      lp.push(companyId, id, i + 1, ...l);
      const o = i * 9;
      return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8}, $${o + 9})`;
    });
    await client.query(
      `insert into arap_lines (company_id, transaction_id, position, account_id, amount, tax_account_id, ` +
        `tax_rate, tax_amount, net) values ${lv.join(', ')}`,
      lp,
    );
    const ep: unknown[] = [];
    const ev = entries.map((e, i) => {
      ep.push(companyId, id, ...e);
      const o = i * 4;
      return `($${o + 1}, $${o + 2}, $${o + 3}, '2024-06-15', $${o + 4}, $${o + 4}, 'CHF', 'amount')`;
    });
    await client.query(
      `insert into ledger_entries (company_id, transaction_id, account_id, date, amount, fx_amount, ` +
        `currency, kind) values ${ev.join(', ')}`,
      ep,
    );
    await client.query(
      `insert into audit_log (company_id, via, entity, entity_id, action, details) values ($1, 'system', ` +
        `'vendor_transaction', $2, 'create_posted', $3)`,
      [companyId, String(id), JSON.stringify({ gross: '1834.10' })],
    );
    const data = { date: '2024-06-15', amount: '1834.1', number: `SQL-${number}`, status: 'posted', currency: 'CHF' };
    await insertEvents(client, companyId, { type: 'bill', id, subject: `/arap/document/vendor/${id}` }, [
      { type: 'bill.created', data },
      { type: 'bill.posted', data },
    ]);
  };
}

/**
 * The same rows as one journal entry through the API, with plain SQL: the reference from
 * the sequence, the header, 2 lines, 2 ledger lines, the audit entry and the event (posted).
 */
function journalStatements(companyId: number, acc: Map<string, number>): Statements {
  const a = (n: string) => acc.get(n)!;
  return async (client) => {
    const number = await nextNumber(client, companyId, 'sql_bench_gl');
    const head = await client.query(
      `insert into gl_transactions (company_id, reference, transdate, description, currency, exchangerate, status,
         posted_at) values ($1, $2, '2024-06-15', 'office rent', 'CHF', 1, 'posted', now()) returning id`,
      [companyId, `SQL-${number}`],
    );
    const id = head.rows[0].id;
    await client.query(
      `insert into gl_lines (company_id, journal_id, position, account_id, debit, credit, base_amount)
       values ($1, $2, 1, $3, 2400, 0, 2400), ($1, $2, 2, $4, 0, 2400, -2400)`,
      [companyId, id, a('6000'), a('1020')],
    );
    await client.query(
      `insert into ledger_entries (company_id, journal_id, account_id, date, amount, fx_amount, currency, kind)
       values ($1, $2, $3, '2024-06-15', 2400, 2400, 'CHF', 'journal'),
              ($1, $2, $4, '2024-06-15', -2400, -2400, 'CHF', 'journal')`,
      [companyId, id, a('6000'), a('1020')],
    );
    await client.query(
      `insert into audit_log (company_id, via, entity, entity_id, action, details) values ($1, 'system', ` +
        `'journal_entry', $2, 'create_posted', $3)`,
      [companyId, String(id), JSON.stringify({ debit: '2400.00' })],
    );
    await insertEvents(client, companyId, { type: 'journal_entry', id, subject: `/gl/transactions/${id}` }, [
      {
        type: 'journal_entry.posted',
        data: { debit: '2400', lines: 2, currency: 'CHF', reference: `SQL-${number}`, transdate: '2024-06-15' },
      },
    ]);
  };
}

/** `connections` workers running `statements` in one transaction each, for `seconds`. */
async function sqlStage(statements: Statements, connections: number, seconds: number): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: DB_URL, max: connections });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const client = await pool.connect();
      try {
        await client.query('begin');
        await statements(client);
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
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    count: latencies.length,
    errors,
  };
}

async function vacuumAnalyze(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

const fmt = (n: number, d = 1) => n.toFixed(d).padStart(9);

export async function run(): Promise<void> {
  console.log(
    `ledger bench: ${DB_URL}, ${SECONDS}s per stage, clients ${CLIENTS.join('/')}, endpoints ${ENDPOINTS.join('/')}`,
  );
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  const { company, apiKey, accounts } = await setupCompany(dataDir);
  const { child, url } = await startLedgerProcess(DB_URL, dataDir, POOL);
  try {
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const base = `${url}/client/${company.dataset}`;
    const vendor = await fetch(`${base}/arap/vendor`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench Vendor' }),
    }).then((r) => r.json() as Promise<{ id: number }>);
    const endpoints = [
      {
        name: 'vendor',
        label: 'POST /arap/transaction/vendor, 3 lines + tax, pending "0"',
        baseline: `sequence, header, 3 lines, 6 ledger lines, audit entry${EVENTS_LABEL} in one transaction`,
        path: `/client/${company.dataset}/arap/transaction/vendor`,
        body: billBody(vendor.id),
        sql: billStatements(company.id, vendor.id, accounts),
      },
      {
        name: 'journal',
        label: 'POST /gl/transactions, 2 lines, pending "0", reference from the sequence',
        baseline: `sequence, header, 2 lines, 2 ledger lines, audit entry${EVENTS_LABEL} in one transaction`,
        path: `/client/${company.dataset}/gl/transactions`,
        body: journalBody,
        sql: journalStatements(company.id, accounts),
      },
      {
        name: 'vendor-keyed',
        label: 'POST /arap/transaction/vendor as above, each request with its own Idempotency-Key',
        baseline: 'the same SQL as for the bill (without a key)',
        path: `/client/${company.dataset}/arap/transaction/vendor`,
        body: billBody(vendor.id),
        sql: billStatements(company.id, vendor.id, accounts),
        keyed: true,
      },
    ].filter((e) => ENDPOINTS.includes(e.name));
    for (const e of endpoints) {
      const check = await fetch(`${url}${e.path}`, { method: 'POST', headers, body: e.body });
      if (check.status !== 201) throw new Error(`${e.label} fails: ${check.status} ${await check.text()}`);
    }

    const results = [];
    for (const e of endpoints) {
      // warm-up, the same for both: JIT, every pool connection opened and its statements planned
      await postStage(url, e.path, apiKey, e.body, 8, WARMUP);
      await sqlStage(e.sql, 8, WARMUP);
      // the tables' statistics and visibility brought up to date now, not by autovacuum in the middle of a stage
      await vacuumAnalyze();
      console.log(`${e.label} vs plain SQL (${e.baseline}); load average ${loadavg().map((l) => l.toFixed(1))}`);
      console.log(
        `${'clients'.padStart(7)} | ${'API req/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} | ` +
          `${'SQL tx/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} | ratio`,
      );
      const stages = [];
      for (const clients of CLIENTS) {
        // LEDGER_STAGE_TIMING: the server's per-stage figures cover this API stage alone (ledgerServer.ts)
        if (STAGE_TIMING) child.kill('SIGUSR2');
        const api = await postStage(url, e.path, apiKey, e.body, clients, SECONDS, 'keyed' in e);
        if (STAGE_TIMING) {
          console.log(`stage timing follows: ${e.name}, ${clients} client(s)`);
          child.kill('SIGUSR2');
        }
        const sql = await sqlStage(e.sql, clients, SECONDS);
        const ratio = api.rps / sql.rps;
        stages.push({ clients, api, sql, ratio, load: loadavg()[0] });
        console.log(
          `${String(clients).padStart(7)} | ${fmt(api.rps)} ${fmt(api.p50)} ${fmt(api.p99)} | ${fmt(sql.rps)} ` +
            `${fmt(sql.p50)} ${fmt(sql.p99)} | ${ratio.toFixed(2)}` +
            `${api.errors + sql.errors ? `  (errors: API ${api.errors}, SQL ${sql.errors})` : ''}`,
        );
      }
      results.push({ endpoint: e.label, baseline: `plain SQL over pg: ${e.baseline}`, stages });
    }
    const result = {
      benchmark: 'ledger: the single posting',
      at: new Date().toISOString(),
      node: process.version,
      seconds: SECONDS,
      pool: POOL,
      endpoints: results,
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
