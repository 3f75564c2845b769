/**
 * Dunning benchmark (issue 33, docs/invoices.md "Dunning runs"): one ledger (in this process) on a
 * throw-away Postgres database with one company (Swiss invoicing: address, VAT number, QR-IBAN)
 * holding 10,000 posted, overdue, unpaid customer invoices (headers generated in SQL, spread over
 * 100 customers, each with an e-mail address and one of the four languages). Timed over HTTP:
 * `POST /arap/dunning/run { dry_run: true }` — the proposal of every invoice with its level and
 * fee — 1 warm-up and BENCH_RUNS (default 5) requests. Then one sent run, timed (`dry_run: false`:
 * the 10,000 levels claimed, the 10,000 fees booked as posted customer transactions — level 1 has a
 * fee too, so every reminder books one — and the 10,000 e-mails queued with their reminder PDFs
 * described). Target of the sent run: ≤ 10 s (printed, never asserted). The ledger runs without
 * its mail sender: the PDFs are rendered when a message is sent, not in the run; the benchmark
 * renders the first 100 reminders afterwards as the sender does, for its cost per message.
 *
 * Writes bench/results/dunning-<time>.json. Env: BENCH_DUNNING_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/ledger_bench_dunning; dropped and re-created), BENCH_RUNS.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, percentile } from './support.ts';
import { createDb, withTenant } from '../ledger-service/src/db/knex.ts';
import { cliOwner, setUpSwissInvoicing } from '../ledger-service/src/demo.ts';
import { renderReminder } from '../ledger-service/src/modules/dunning/index.ts';
import { loadConfig } from '../ledger-service/src/config.ts';
import { startLedger } from '../ledger-service/src/server.ts';

const DB_URL = process.env.BENCH_DUNNING_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_dunning';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const INVOICES = 10_000;
const TARGET_MS = 10_000;
/** reminders rendered as the mail sender renders them, after the run (its cost per message, not in the run) */
const RENDERED = 100;

export async function run(): Promise<void> {
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-dunning-'));
  const db = createDb(DB_URL);
  const { company, userId, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  // the invoice bank account, address and VAT number a reminder prints (its QR payment part)
  await withTenant(db, company.id, (tx) =>
    setUpSwissInvoicing({ tx, company, actor: cliOwner(userId) }, 'billing@bench.example.com'),
  );
  const ar = (await db('accounts').where({ company_id: company.id, accno: '1100' }).first('id'))!.id;
  await db.raw(
    `insert into parties (company_id, vc, number, name, email, language)
     select ?, 'customer', 'C-' || g, 'Kunde ' || g, 'kunde' || g || '@example.test',
            (array['de', 'fr', 'it', 'en'])[1 + g % 4]
       from generate_series(1, 100) g`,
    [company.id],
  );
  await db.raw(
    `insert into arap_transactions (company_id, vc, type, party_id, inv_number, inv_date, due_date, currency,
       exchangerate, record_account_id, status, net_amount, tax_amount, amount, posted_at)
     select ?, 'customer', 'invoice', p.id, 'AR-B' || g, date '2025-01-01' + (g % 60), date '2025-01-31' + (g % 60),
            'CHF', 1, ?, 'posted', 100 + g % 900, 0, 100 + g % 900, now()
       from generate_series(1, ?) g
       join parties p on p.company_id = ? and p.number = 'C-' || (1 + g % 100)`,
    [company.id, ar, INVOICES, company.id],
  );
  await db.destroy();
  const config = loadConfig({
    DATABASE_URL: DB_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LEDGER_PORT: '0',
    LEDGER_RECURRING_INTERVAL: '0',
  });
  // no mail sender: the run is timed, not the sending (the PDFs are rendered when a message is sent)
  const ledger = await startLedger({ config, inbox: false, webhooks: false, mail: false });
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
    const text = { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Vi preghiamo di pagare.', en: 'Please pay.' };
    await api('POST', '/system/company', {
      dunning: {
        levels: [
          { days: 10, fee: 5, text },
          { days: 30, fee: 20, text },
        ],
      },
    });
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const answer = await api('POST', '/arap/dunning/run', { date: '2025-06-30', dry_run: true });
      const ms = performance.now() - t0;
      count = (answer.items as unknown[]).length;
      if (i > 0) times.push(ms);
    }
    const sentStart = performance.now();
    const sent = await api('POST', '/arap/dunning/run', { date: '2025-06-30', dry_run: false });
    const sentMs = performance.now() - sentStart;
    const sentCount = (sent.items as unknown[]).length;
    // what the mail sender does later for each reminder: render its PDF (from the item the run recorded)
    const rendered = await withTenant(ledger.db, company.id, async (tx) => {
      const items = await tx('dunning_items')
        .where({ company_id: company.id })
        .orderBy('id')
        .limit(RENDERED)
        .pluck('id');
      const r0 = performance.now();
      for (const id of items) await renderReminder(tx, company.id, { item_id: id });
      return { count: items.length, ms: performance.now() - r0 };
    });
    const p50 = percentile(
      [...times].sort((a, b) => a - b),
      50,
    );
    const result = {
      invoices: INVOICES,
      proposed: count,
      runs: RUNS,
      p50_ms: Math.round(p50),
      sent: sentCount,
      sent_ms: Math.round(sentMs),
      target_ms: TARGET_MS,
      rendered: rendered.count,
      render_ms_each: Number((rendered.ms / rendered.count).toFixed(1)),
    };
    const met = (ms: number) => (ms <= TARGET_MS ? 'met' : 'not met');
    console.log(
      `dunning over ${INVOICES} open invoices: proposal ${count}, median ${(p50 / 1000).toFixed(2)} s; ` +
        `the sent run ${sentCount} reminders in ${(sentMs / 1000).toFixed(2)} s ` +
        `(target of a run ≤ ${TARGET_MS / 1000} s: ${met(sentMs)}); ` +
        `the mail sender renders a reminder's PDF in ${(rendered.ms / rendered.count).toFixed(1)} ms ` +
        `(${rendered.count} rendered)`,
    );
    const dir = new URL('./results/', import.meta.url).pathname;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `dunning-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result));
  } finally {
    await ledger.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
