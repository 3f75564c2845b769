/**
 * Two versions of the ledger under the same load at the same moments: this checkout's and
 * another's (BENCH_AB_OTHER, a directory holding an extracted commit with this tree's
 * node_modules linked in, and bench/ledgerServer.ts and stageTiming.ts copied from here). One
 * client posts the same bill (as bench/ledger.ts) to each server in turn, so on a shared,
 * busy machine both see the same load; each server reports, over the measured part, its CPU
 * and clock per request stage by stage (LEDGER_STAGE_TIMING, stageTiming.ts), and the
 * statements and CPU per request since it listened (BENCH_COUNT_QUERIES), on stderr.
 *
 * Env: BENCH_DATABASE_URL (dropped and re-created; default postgres://postgres@127.0.0.1:5432/ledger_bench_ab),
 * BENCH_AB_OTHER (required), BENCH_SECONDS (measured, default 20), BENCH_WARMUP (default 6), BENCH_WORKERS
 * (default 0: both servers without their background workers, ledgerServer.ts; one client alternating between two
 * servers leaves each idle most of the time, and the workers' polling would be charged to its requests; 1: with).
 * The other checkout's bench/ledgerServer.ts must know BENCH_WORKERS (copy this one there).
 * BENCH_AB_PARALLEL=1: instead of one client alternating, each server has a client of its own and both post
 * without pause for the same seconds (as one client of bench/ledger.ts does): a server is not left idle between
 * its requests, which the alternation does and which makes every request pay a wake-up from idle.
 * BENCH_AB_OTHER_NODE_OPTIONS: NODE_OPTIONS for the other checkout's server only.
 * `npx tsx bench/ledgerAB.ts`. Not part of `npm run bench`: it needs the other checkout.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, startLedgerProcess } from './support.ts';

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_ab';
const OTHER = process.env.BENCH_AB_OTHER;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6);
const PARALLEL = process.env.BENCH_AB_PARALLEL === '1';

/** node options for the other checkout's server only (e.g. a V8 flag measured against this one without it) */
const OTHER_NODE_OPTIONS = process.env.BENCH_AB_OTHER_NODE_OPTIONS;

async function withNodeOptions<T>(options: string | undefined, start: () => Promise<T>): Promise<T> {
  if (options === undefined) return start();
  const before = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = options;
  try {
    return await start();
  } finally {
    if (before === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = before;
  }
}

if (!OTHER) throw new Error('BENCH_AB_OTHER: the directory of the other checkout');
process.env.LEDGER_STAGE_TIMING = '1';
process.env.BENCH_COUNT_QUERIES = '1';
process.env.BENCH_WORKERS ??= '0';

await recreateDatabase(DB_URL);
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-ab-'));
const db = createDb(DB_URL);
const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
await db.destroy();
const other = (await import(join(OTHER, 'bench/support.ts'))) as { startLedgerProcess: typeof startLedgerProcess };
const servers = [
  { name: 'this checkout', ...(await startLedgerProcess(DB_URL, dataDir, 4)) },
  {
    name: `other (${OTHER})`,
    ...(await withNodeOptions(OTHER_NODE_OPTIONS, () => other.startLedgerProcess(DB_URL, dataDir, 4))),
  },
];
const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
const base = `/client/${company.dataset}`;
try {
  const vendor = (await (
    await request(`${servers[0]!.url}${base}/arap/vendor`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench Vendor' }),
    })
  ).body.json()) as { id: number };
  const bill = JSON.stringify({
    type: 'transaction',
    vendor_id: vendor.id,
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
  const post = async (url: string) => {
    const res = await request(`${url}${base}/arap/transaction/vendor`, { method: 'POST', headers, body: bill });
    await res.body.dump();
    if (res.statusCode !== 201) throw new Error(`bill: ${res.statusCode}`);
  };
  const alternate = async (seconds: number) => {
    const until = Date.now() + seconds * 1000;
    let n = 0;
    while (Date.now() < until) {
      // the order flips every round, so neither server always follows the other
      const order = n % 2 === 0 ? servers : [...servers].reverse();
      for (const s of order) await post(s.url);
      n++;
    }
    return n;
  };
  // BENCH_AB_PARALLEL=1: a client of its own for each server, both posting all the time, as bench/ledger.ts's one
  // client does: neither server sits idle between its requests while the other is served
  const parallel = async (seconds: number) => {
    const until = Date.now() + seconds * 1000;
    const counts = await Promise.all(
      servers.map(async (s) => {
        let n = 0;
        while (Date.now() < until) {
          await post(s.url);
          n++;
        }
        return n;
      }),
    );
    return counts.join(' and ');
  };
  const run = PARALLEL ? parallel : alternate;
  await run(WARMUP);
  for (const s of servers) s.child.kill('SIGUSR2');
  const clients = PARALLEL ? 'one client per server, at once' : 'one client alternating';
  console.log(`measuring ${SECONDS} s, ${clients}; load average ${loadavg().map((l) => l.toFixed(1))}`);
  const rounds = await run(SECONDS);
  console.log(`${rounds} bills each; load average ${loadavg().map((l) => l.toFixed(1))}`);
  for (const s of servers) {
    console.log(`--- ${s.name}`);
    s.child.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 500));
  }
} finally {
  for (const s of servers) {
    console.log(`--- ${s.name}, since it listened`);
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
  }
}
