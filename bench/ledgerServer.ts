/**
 * The ledger under benchmark, in its own process so the load generator does not share its
 * event loop. Env: BENCH_DATABASE_URL, BENCH_POOL (connections), BENCH_DATA_DIR. Prints
 * one JSON line {"url": ...} when listening; stops on SIGTERM.
 */
import { loadConfig } from '../ledger-service/src/config.ts';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { startLedger } from '../ledger-service/src/server.ts';

const url = process.env.BENCH_DATABASE_URL!;
const config = { ...loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', LEDGER_PORT: '0', DATA_DIR: process.env.BENCH_DATA_DIR }) };
const db = createDb(url, { poolMax: Number(process.env.BENCH_POOL ?? 32) });
const ledger = await startLedger({ config, database: { db, url, close: () => db.destroy() } });
process.stdout.write(`${JSON.stringify({ url: ledger.url })}\n`);
process.on('SIGTERM', () => {
  void ledger.close().then(() => db.destroy()).finally(() => process.exit(0));
});
