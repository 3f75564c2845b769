/**
 * Documents and inbox benchmark (issue 13):
 *
 * 1. Extraction: median and p95 ms of reading one file as the inbox worker does
 *    (`readInboxFile`: pdfjs text + render of the last page + ZXing; QR-bill parsed) over the
 *    fixtures — the vector QR-bill PDF of the invoices module, the image-only PDF, the photo
 *    PNG and JPEG — after a warm-up. Target ≤ 500 ms median per single-page PDF.
 * 2. Uploads: `POST /documents/inbox` (multipart) of distinct 1 MB PDFs to a real ledger
 *    on a throw-away database, extraction worker off (so the figure is the upload's own),
 *    one client, then 4; uploads/s, MB/s, p50/p99 ms.
 *
 * Writes bench/results/documents-<time>.json.
 *
 * Env: BENCH_DOCUMENTS_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_documents;
 * dropped and re-created), BENCH_EXTRACTIONS per fixture (default 30), BENCH_UPLOADS per
 * stage (default 100).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { recreateDatabase } from '../scripts/database.ts';
import { percentile } from './support.ts';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';
import { startLedger } from '../ledger-service/src/server.ts';
import { createTestCompany, testConfig } from '../ledger-service/test/helpers.ts';
import { readInboxFile } from '../ledger-service/src/modules/inbox/service.ts';
import type { InboxMediaType } from '../ledger-service/src/modules/inbox/rules.ts';
import { fixture, IMAGE_PDF, PHOTO, VECTOR } from '../ledger-service/test/fixtures/inbox/fixtures.ts';

const DB_URL = process.env.BENCH_DOCUMENTS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_documents';
const EXTRACTIONS = Number(process.env.BENCH_EXTRACTIONS ?? 30);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 100);
const TARGET_MS = 500;

interface Timing {
  n: number;
  median: number;
  p95: number;
}

function timing(ms: number[]): Timing {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, median: Math.round(percentile(sorted, 50)), p95: Math.round(percentile(sorted, 95)) };
}

async function extraction(): Promise<Record<string, Timing>> {
  const files: [string, string, InboxMediaType][] = [
    ['vector PDF', VECTOR.file, 'application/pdf'],
    ['image PDF', IMAGE_PDF.file, 'application/pdf'],
    ['photo PNG', PHOTO.files[0]!, 'image/png'],
    ['photo JPEG', PHOTO.files[1]!, 'image/jpeg'],
  ];
  const out: Record<string, Timing> = {};
  for (const [label, file, type] of files) {
    const data = fixture(file);
    // warm-up: module loading, wasm compilation, font data
    for (let i = 0; i < 3; i++) await readInboxFile(data, type);
    const ms: number[] = [];
    for (let i = 0; i < EXTRACTIONS; i++) {
      const started = performance.now();
      const result = await readInboxFile(data, type);
      ms.push(performance.now() - started);
      if (result.kind !== 'qr_bill') throw new Error(`${file}: no QR-bill read (${result.kind})`);
    }
    out[label] = timing(ms);
  }
  return out;
}

/** A 1 MB PDF-looking file, different every time (no deduplication by content). */
function megabytePdf(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.4\n%'), randomBytes(1024 * 1024 - 10)]);
}

async function uploads(): Promise<Record<string, Timing & { perSecond: number; mbPerSecond: number }>> {
  await recreateDatabase(DB_URL);
  const db = createDb(DB_URL);
  await migrateLatest(db);
  await db.destroy();
  const ledger = await startLedger({ config: testConfig({ databaseUrl: DB_URL }), mail: false, inbox: false });
  const co = await createTestCompany({ ...ledger, config: testConfig({ databaseUrl: DB_URL }) });
  const url = `${ledger.url}/client/${co.dataset}/documents/inbox`;
  const upload = async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(megabytePdf())], { type: 'application/pdf' }), 'bill.pdf');
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'X-API-Key': co.apiKey }, body: form });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
    return performance.now() - started;
  };
  const out: Record<string, Timing & { perSecond: number; mbPerSecond: number }> = {};
  try {
    for (let i = 0; i < 3; i++) await upload();
    for (const clients of [1, 4]) {
      const ms: number[] = [];
      const started = performance.now();
      await Promise.all(Array.from({ length: clients }, async () => {
        for (let i = 0; i < Math.ceil(UPLOADS / clients); i++) ms.push(await upload());
      }));
      const seconds = (performance.now() - started) / 1000;
      out[`${clients} client${clients > 1 ? 's' : ''}`] = { ...timing(ms), perSecond: +(ms.length / seconds).toFixed(1), mbPerSecond: +(ms.length / seconds).toFixed(1) };
    }
  } finally {
    await ledger.close();
  }
  return out;
}

export async function run(): Promise<void> {
  console.log('\n== documents: QR-bill extraction and inbox uploads ==');
  const extract = await extraction();
  for (const [label, t] of Object.entries(extract)) {
    console.log(`extraction ${label.padEnd(10)} median ${t.median} ms  p95 ${t.p95} ms  (n=${t.n})`);
  }
  const pdfMedian = Math.max(extract['vector PDF']!.median, extract['image PDF']!.median);
  console.log(`target: ≤ ${TARGET_MS} ms median per single-page PDF → ${pdfMedian <= TARGET_MS ? 'met' : 'MISSED'} (${pdfMedian} ms)`);
  const up = await uploads();
  for (const [label, t] of Object.entries(up)) {
    console.log(`upload 1 MB PDF, ${label.padEnd(9)} ${t.perSecond}/s  ${t.mbPerSecond} MB/s  p50 ${t.median} ms  p95 ${t.p95} ms  (n=${t.n})`);
  }
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/documents-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url), JSON.stringify({ extract, uploads: up }, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
