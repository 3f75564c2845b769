/**
 * What the ledger's way to the database costs in CPU, apart from everything else a request
 * does: in one process, one after the other, a tenant transaction with one statement in the
 * shapes it has had — a knex transaction (BEGIN alone, the settings, the statement, COMMIT: the
 * code before 2026-11-29 noon), the ledger's own (db/tenantTransaction.ts `withTenant`: the
 * opening, a knex statement, COMMIT), and with a prepared hot statement (knex.ts
 * `preparedQuery`: it goes with the opening, then COMMIT) — against the same messages on a bare
 * `pg` client on the same database, and one statement outside a transaction through knex and
 * through pg. Rounds alternate, so a busy machine weighs on all alike; the median of the rounds
 * is printed (process.cpuUsage per operation, and the clock).
 *
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_tx; dropped
 * and re-created, a company made), BENCH_ROUNDS (default 5), BENCH_OPS per round and kind
 * (default 1000). `npx tsx bench/transactionCost.ts`; not part of `npm run bench`.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { APP_ROLE, createDb, preparedQuery, withTenant } from '../ledger-service/src/db/knex.ts';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany } from './support.ts';

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_tx';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OPS = Number(process.env.BENCH_OPS ?? 1000);

await recreateDatabase(DB_URL);
const db = createDb(DB_URL, { poolMax: 1, preparedStatements: true });
const { company } = await createBenchCompany(db, DB_URL, mkdtempSync(join(tmpdir(), 'ledger-tx-')));
const client = new pg.Client(DB_URL);
await client.connect();
// the settings as withTenant sends them when the URL's user could bypass row-level security
const settings = `set local app.company_id = '${company.id}'; set local role ${APP_ROLE}`;

const PREPARED = 'select ?::int as n';
const kinds: [string, () => Promise<unknown>][] = [
  [
    'knex transaction: BEGIN, settings, select, COMMIT (4 round trips)',
    () =>
      db.transaction(async (trx) => {
        await trx.raw(settings);
        await trx.raw('select 1');
      }),
  ],
  [
    'pg: the same 4',
    async () => {
      await client.query('begin');
      await client.query(settings);
      await client.query('select 1');
      await client.query('commit');
    },
  ],
  ['withTenant: opening, knex select, COMMIT (3)', () => withTenant(db, company.id, (tx) => tx.raw('select 1'))],
  [
    'pg: the same 3',
    async () => {
      await client.query(`begin; ${settings}`);
      await client.query('select 1');
      await client.query('commit');
    },
  ],
  [
    'withTenant: opening with a prepared select, COMMIT (2)',
    () => withTenant(db, company.id, (tx) => preparedQuery(tx, PREPARED, [1])),
  ],
  [
    'pg: the same 2',
    async () => {
      await client.query(`begin; ${settings}; select 1`);
      await client.query('commit');
    },
  ],
  ['knex: one statement (raw, a binding)', () => db.raw('select ?::int as n', [1])],
  ['pg: one statement (a parameter)', () => client.query('select $1::int as n', [1])],
];

const figures = new Map<string, { cpu: number; wall: number }[]>();
console.log(
  `transaction cost: ${DB_URL}, ${ROUNDS} rounds of ${OPS} each; load average ${loadavg().map((l) => l.toFixed(1))}`,
);
for (let round = 0; round <= ROUNDS; round++) {
  for (const [name, op] of kinds) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < OPS; i++) await op();
    const { user, system } = process.cpuUsage(cpu0);
    // round 0 warms up (JIT, the prepared statements) and is not counted
    if (round > 0)
      figures.set(name, [
        ...(figures.get(name) ?? []),
        { cpu: (user + system) / OPS, wall: ((performance.now() - t0) * 1000) / OPS },
      ]);
  }
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, runs] of figures) {
  const cpu = median(runs.map((r) => r.cpu));
  const wall = median(runs.map((r) => r.wall));
  console.log(`  ${name.padEnd(66)} CPU ${cpu.toFixed(0).padStart(5)} µs   clock ${wall.toFixed(0).padStart(5)} µs`);
}
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1))}`);
await client.end();
await db.destroy();
