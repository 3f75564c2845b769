/**
 * Recurring-invoice job benchmark (issue 33, docs/invoices.md "Recurring invoices"): one ledger
 * (in this process, its job's rounds run by hand) on a throw-away Postgres database with one
 * company holding 1,000 monthly recurring invoices in mode `post`, all due on the clock's day
 * (`LEDGER_CLOCK`). Timed: one round of the job (`runDue`), which makes and posts the 1,000
 * invoices, each in its own transaction with its template's row held. Target: ≤ 20 s (printed,
 * never asserted). Checks that exactly 1,000 invoices were made and that a second round makes none.
 *
 * Writes bench/results/recurring-<time>.json. Env: BENCH_RECURRING_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/ledger_bench_recurring; dropped and re-created).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany } from './support.ts';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { loadConfig } from '../ledger-service/src/config.ts';
import { startLedger } from '../ledger-service/src/server.ts';

const DB_URL = process.env.BENCH_RECURRING_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_recurring';
const TEMPLATES = 1000;
const TARGET_MS = 20_000;
const CLOCK = '2026-01-01T06:00:00Z';

export async function run(): Promise<void> {
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-recurring-'));
  const db = createDb(DB_URL);
  const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  await db.destroy();
  const config = {
    ...loadConfig({
      DATABASE_URL: DB_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      LEDGER_PORT: '0',
      LEDGER_RECURRING_INTERVAL: '0',
    }),
    clock: CLOCK,
  };
  const ledger = await startLedger({ config, inbox: false, webhooks: false });
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${ledger.url}/client/${company.dataset}${path}`, {
        method,
        headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const customer = await api('POST', '/arap/customer', { name: 'Bench Mieter AG', language: 'de' });
    const t0 = performance.now();
    for (let i = 0; i < TEMPLATES; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, TEMPLATES - i) }, (_, k) =>
          api('POST', '/arap/recurring/customer', {
            template: {
              customer_id: customer.id,
              items: [
                {
                  description: `Miete Objekt ${i + k + 1} {month} {year}`,
                  quantity: 1,
                  price: 1000 + i + k,
                  account: '3400',
                  taxAccount: '2200',
                },
              ],
            },
            schedule: { every: 1, unit: 'month', day: 1, start: '2026-01-01' },
            mode: 'post',
          }),
        ),
      );
    }
    const setupMs = performance.now() - t0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const made = await ledger.recurring.runDue({ companyIds: [company.id] });
    const roundMs = performance.now() - started;
    // this process's CPU (the ledger and its job; Postgres's own is not counted): the cost whatever else runs
    const cpuUsed = process.cpuUsage(cpu);
    const cpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
    const again = await ledger.recurring.runDue({ companyIds: [company.id] });
    const result = {
      templates: TEMPLATES,
      made,
      second_round_made: again,
      setup_ms: Math.round(setupMs),
      round_ms: Math.round(roundMs),
      round_cpu_ms: Math.round(cpuMs),
      per_invoice_ms: Number((roundMs / Math.max(made, 1)).toFixed(1)),
      target_ms: TARGET_MS,
      met: roundMs <= TARGET_MS && made === TEMPLATES && again === 0,
    };
    console.log(
      `recurring job: ${made} invoices made and posted in ${(roundMs / 1000).toFixed(1)} s ` +
        `(CPU of the ledger process ${(cpuMs / 1000).toFixed(1)} s) ` +
        `(${result.per_invoice_ms} ms each; target ≤ ${TARGET_MS / 1000} s: ${result.met ? 'met' : 'NOT met'}); ` +
        `a second round made ${again}`,
    );
    const dir = new URL('./results/', import.meta.url).pathname;
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `recurring-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify(result),
    );
  } finally {
    await ledger.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
