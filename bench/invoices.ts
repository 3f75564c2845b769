/**
 * Invoice benchmark (issue 10), two parts on one real ledger (its own process, as in
 * bench/ledger.ts) on a throw-away Postgres database, company with the Swiss invoicing
 * set-up of the demo (address, VAT number, CHF bank account with QR-IBAN):
 *
 * 1. Creation: `POST /arap/invoice/customer` with 5 items, posted (`pending: "0"`, so each
 *    invoice also gets its QR reference) vs `POST /arap/transaction/customer` with the same
 *    5 amounts as lines, posted, at 1 and 8 clients, alternating stages in the same run.
 *    Target ratio invoice / transaction ≥ 0.8 (printed, never asserted).
 * 2. PDF: median and p95 ms of `renderInvoicePdf` in this process over single-page
 *    invoices (the input the route builds for one of the benchmark's invoices), and of
 *    `GET /arap/invoice/customer/{id}/pdf` over HTTP, one request at a time over distinct
 *    invoices; plus PDFs/s at 2 connections. Target ≤ 50 ms per single-page invoice.
 *
 * Writes bench/results/invoices-<time>.json.
 *
 * Env: BENCH_INVOICES_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_invoices;
 * dropped and re-created), BENCH_SECONDS per creation stage (default 3; two stages per
 * kind and concurrency), BENCH_CLIENTS (default "1,8"), BENCH_PDFS renders / requests (default 200).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import autocannon from 'autocannon';
import { createBenchCompany, type Figures, percentile, postStage, startLedgerProcess } from './support.ts';
import { createDb, withTenant } from '../ledger-service/src/db/knex.ts';
import { cliOwner, setUpSwissInvoicing } from '../ledger-service/src/demo.ts';
import { renderInvoicePdf, type InvoicePdfInput } from '../ledger-service/src/modules/invoices/pdf.ts';
import { pdfPageCount } from '../ledger-service/test/support/pdf.ts';

const DB_URL = process.env.BENCH_INVOICES_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_invoices';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,8').split(',').map(Number);
const PDFS = Number(process.env.BENCH_PDFS ?? 200);
const RATIO_TARGET = 0.8;
const PDF_TARGET_MS = 50;

interface Timing {
  n: number;
  median: number;
  p95: number;
  mean: number;
  max: number;
}

async function setupCompany(dataDir: string) {
  const db = createDb(DB_URL);
  try {
    const { company, userId, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
    await withTenant(db, company.id, (tx) =>
      setUpSwissInvoicing({ tx, company, actor: cliOwner(userId) }, 'billing@bench.example.com'),
    );
    return { company, apiKey };
  } finally {
    await db.destroy();
  }
}

/** The 5 rows of both documents: quantity × price = the transaction line's amount. */
const ROWS = [
  { description: 'Bookkeeping', quantity: 12.5, unit: 'h', price: 150, taxAccount: '2200' },
  { description: 'Annual report', quantity: 1, unit: 'pcs', price: 480, taxAccount: '2200' },
  { description: 'Payroll run', quantity: 3, unit: 'pcs', price: 95.5, taxAccount: '2200' },
  { description: 'Tax return', quantity: 1, unit: 'pcs', price: 620, taxAccount: '2200' },
  { description: 'Reference book', quantity: 2, unit: 'pcs', price: 39.9, taxAccount: '2201' },
];

const invoiceBody = (customerId: number) =>
  JSON.stringify({
    type: 'invoice',
    customer_id: customerId,
    invDate: '2024-06-15',
    curr: 'CHF',
    pending: '0',
    terms: 30,
    notes: 'Thank you for your order.',
    items: ROWS.map((r) => ({
      description: r.description,
      quantity: r.quantity,
      unit: r.unit,
      price: r.price,
      account: '3400',
      taxAccount: r.taxAccount,
    })),
  });

const transactionBody = (customerId: number) =>
  JSON.stringify({
    type: 'transaction',
    customer_id: customerId,
    invDate: '2024-06-15',
    curr: 'CHF',
    pending: '0',
    lines: ROWS.map((r) => ({
      account: '3400',
      amount: Math.round(r.quantity * r.price * 100) / 100,
      taxAccount: r.taxAccount,
      description: r.description,
    })),
  });

/** Two stages merged: req/s over both, the worse percentiles. */
function merge(a: Figures, b: Figures): Figures {
  return {
    rps: (a.rps + b.rps) / 2,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    count: a.count + b.count,
    errors: a.errors + b.errors,
  };
}

function timing(ms: number[]): Timing {
  const s = [...ms].sort((x, y) => x - y);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    n: s.length,
    median: round(percentile(s, 50)),
    p95: round(percentile(s, 95)),
    mean: round(s.reduce((x, y) => x + y, 0) / s.length),
    max: round(s[s.length - 1]!),
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** The input `GET …/pdf` builds (modules/invoices/pdfDocument.ts), from the API's read shapes. */
// biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
async function pdfInputOf(get: (path: string) => Promise<any>, id: number): Promise<InvoicePdfInput> {
  const read = await get(`/arap/invoice/customer/${id}`);
  const party = await get(`/arap/customer/${read.customer_id}`);
  const company = await get('/system/company');
  const bank = await get(`/bank/accounts/${company.invoice_bank_account_id}`);
  return {
    language: 'en',
    company: {
      name: company.name,
      address: {
        street: company.street,
        houseNumber: company.house_number,
        zip: company.zip,
        city: company.city,
        country: company.country,
      },
      vatNumber: company.vat_number,
      email: company.email,
    },
    party: {
      name: party.name,
      address: {
        street: text(party.address1),
        houseNumber: text(party.street),
        zip: text(party.zipcode),
        city: text(party.city),
        country: text(party.country),
      },
    },
    bankAccount: { iban: bank.iban, qrIban: bank.qr_iban ?? null },
    invoice: {
      vc: 'customer',
      invNumber: read.invNumber,
      invDate: read.invDate,
      dueDate: read.dueDate ?? null,
      currency: read.currency,
      description: read.description ?? null,
      ordNumber: read.ordNumber ?? null,
      poNumber: read.poNumber ?? null,
      // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
      items: (read.items as any[]).map((i) => ({
        description: i.description ?? null,
        quantity: i.quantity ?? 0,
        unit: i.unit ?? null,
        price: i.price ?? 0,
        discount: i.discount ?? null,
        amount: i.amount ?? 0,
      })),
      // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
      taxes: (read.taxes as any[]).map((t) => ({ rate: t.rate ?? null, base: t.base ?? 0, amount: t.amount ?? 0 })),
      netAmount: read.netAmount,
      taxAmount: read.taxAmount,
      grossAmount: read.grossAmount,
      open: read.open ?? null,
      terms: read.terms ?? null,
      notes: read.notes ?? null,
      qr_reference: read.qr_reference ?? null,
    },
  };
}

const fmt = (n: number, d = 1) => n.toFixed(d).padStart(9);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export async function run(): Promise<void> {
  const started = performance.now();
  console.log(`invoices bench: ${DB_URL}, clients ${CLIENTS.join('/')}, ${PDFS} PDFs`);
  await recreateDatabase(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-invoices-'));
  const { company, apiKey } = await setupCompany(dataDir);
  const { child, url } = await startLedgerProcess(DB_URL, dataDir, Math.max(...CLIENTS));
  try {
    const base = `${url}/client/${company.dataset}`;
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
      return res.json() as Promise<any>;
    };
    const customer = await fetch(`${base}/arap/customer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Beispiel GmbH',
        address1: 'Marktgasse',
        street: '28',
        zipcode: '3011',
        city: 'Bern',
        country: 'CH',
        terms: 30,
      }),
    }).then((r) => r.json() as Promise<{ id: number }>);

    const invoicePath = `/client/${company.dataset}/arap/invoice/customer`;
    const transactionPath = `/client/${company.dataset}/arap/transaction/customer`;
    const invoice = invoiceBody(customer.id);
    const transaction = transactionBody(customer.id);
    let firstInvoiceId = 0;
    for (const [path, body] of [
      [invoicePath, invoice],
      [transactionPath, transaction],
    ] as const) {
      const check = await fetch(`${url}${path}`, { method: 'POST', headers, body });
      if (check.status !== 201)
        throw new Error(`the bench request to ${path} fails: ${check.status} ${await check.text()}`);
      if (path === invoicePath) firstInvoiceId = ((await check.json()) as { id: number }).id;
    }
    const sample = await get(`/arap/invoice/customer/${firstInvoiceId}`);
    const created = await fetch(`${url}${transactionPath}`, { method: 'POST', headers, body: transaction });
    const sampleTx = await get(`/arap/transaction/customer/${((await created.json()) as { id: number }).id}`);
    if (sample.grossAmount !== sampleTx.grossAmount)
      throw new Error(`the documents differ: invoice ${sample.grossAmount}, transaction ${sampleTx.grossAmount}`);

    // 1. creation: per concurrency, alternating stages (invoice, transaction, transaction, invoice) after a warm-up of
    // both
    await postStage(url, invoicePath, apiKey, invoice, Math.max(...CLIENTS), 2);
    await postStage(url, transactionPath, apiKey, transaction, Math.max(...CLIENTS), 2);
    console.log(`creation, gross CHF ${sample.grossAmount} per document, 2 × ${SECONDS}s per kind and concurrency:`);
    console.log(
      `${'clients'.padStart(7)} | ${'invoice/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} | ` +
        `${'trans./s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} | ratio`,
    );
    const creation = [];
    for (const clients of CLIENTS) {
      const inv1 = await postStage(url, invoicePath, apiKey, invoice, clients, SECONDS);
      const tx1 = await postStage(url, transactionPath, apiKey, transaction, clients, SECONDS);
      const tx2 = await postStage(url, transactionPath, apiKey, transaction, clients, SECONDS);
      const inv2 = await postStage(url, invoicePath, apiKey, invoice, clients, SECONDS);
      const inv = merge(inv1, inv2);
      const txf = merge(tx1, tx2);
      const ratio = inv.rps / txf.rps;
      creation.push({ clients, invoice: inv, transaction: txf, ratio, met: ratio >= RATIO_TARGET });
      const errors = inv.errors + txf.errors ? `  (errors: invoice ${inv.errors}, transaction ${txf.errors})` : '';
      console.log(
        `${String(clients).padStart(7)} | ${fmt(inv.rps)} ${fmt(inv.p50)} ${fmt(inv.p99)} | ${fmt(txf.rps)} ` +
          `${fmt(txf.p50)} ${fmt(txf.p99)} | ${ratio.toFixed(2)}${errors}`,
      );
    }
    const worst = Math.min(...creation.map((c) => c.ratio));
    console.log(
      `ratio invoice / transaction: target ≥ ${RATIO_TARGET} at every concurrency: ` +
        `${met(worst >= RATIO_TARGET)} (lowest ${worst.toFixed(2)})`,
    );

    // 2. PDF: in process
    const input = await pdfInputOf(get, firstInvoiceId);
    const samplePdf = await renderInvoicePdf(input);
    const pages = await pdfPageCount(samplePdf);
    for (let i = 0; i < 20; i++) await renderInvoicePdf(input);
    const renderMs: number[] = [];
    for (let i = 0; i < PDFS; i++) {
      const t0 = performance.now();
      await renderInvoicePdf(input);
      renderMs.push(performance.now() - t0);
    }
    const render = timing(renderMs);

    // 2. PDF: over HTTP, one at a time, distinct posted invoices (oldest first)
    const ids = ((await get(`/arap/invoices/customer?limit=${PDFS + 20}&sort=id`)) as { id: number }[]).map(
      (r) => r.id,
    );
    if (ids.length < PDFS + 20) throw new Error(`only ${ids.length} invoices to render`);
    const fetchPdf = async (id: number) => {
      const res = await fetch(`${base}/arap/invoice/customer/${id}/pdf`, { headers: { 'x-api-key': apiKey } });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || bytes.subarray(0, 5).toString() !== '%PDF-')
        throw new Error(`GET …/${id}/pdf: ${res.status}`);
      return bytes;
    };
    for (const id of ids.slice(0, 20)) await fetchPdf(id);
    const httpMs: number[] = [];
    let bytes = 0;
    for (const id of ids.slice(20, 20 + PDFS)) {
      const t0 = performance.now();
      bytes += (await fetchPdf(id)).length;
      httpMs.push(performance.now() - t0);
    }
    const http = timing(httpMs);
    const parallel = await autocannon({
      url: `${base}/arap/invoice/customer/${firstInvoiceId}/pdf`,
      headers: { 'x-api-key': apiKey },
      connections: 2,
      duration: 3,
    });
    const throughput = {
      connections: 2,
      rps: parallel.requests.average,
      p50: parallel.latency.p50,
      p99: parallel.latency.p99,
      errors: parallel.non2xx + parallel.errors + parallel.timeouts,
    };

    console.log(
      `PDF, single-page invoice with 5 items and QR-bill (${pages} page${pages === 1 ? '' : 's'}, ` +
        `~${Math.round(bytes / httpMs.length / 1024)} KiB):`,
    );
    console.log(
      `${''.padStart(26)} ${'median'.padStart(9)} ${'p95'.padStart(9)} ${'max'.padStart(9)}   (ms, n = ${PDFS})`,
    );
    console.log(
      `${'renderInvoicePdf'.padEnd(26)} ${fmt(render.median, 2)} ${fmt(render.p95, 2)} ${fmt(render.max, 2)}`,
    );
    console.log(
      `${'GET …/pdf, 1 at a time'.padEnd(26)} ${fmt(http.median, 2)} ${fmt(http.p95, 2)} ${fmt(http.max, 2)}`,
    );
    console.log(
      `GET …/pdf at 2 connections: ${throughput.rps.toFixed(1)} PDFs/s, p50 ${throughput.p50} ms, p99 ` +
        `${throughput.p99} ms${throughput.errors ? `, errors ${throughput.errors}` : ''}`,
    );
    const pdfMet = pages === 1 && render.median <= PDF_TARGET_MS && http.median <= PDF_TARGET_MS;
    console.log(`target ≤ ${PDF_TARGET_MS} ms per single-page invoice (median, render and HTTP): ${met(pdfMet)}`);

    const result = {
      benchmark:
        'invoices: POST /arap/invoice/customer (5 items, pending "0") vs POST /arap/transaction/customer (5 lines, ' +
        'pending "0"); invoice PDF rendering',
      at: new Date().toISOString(),
      node: process.version,
      seconds: SECONDS,
      creation: { target: RATIO_TARGET, met: worst >= RATIO_TARGET, stages: creation },
      pdf: { pages, render, http, throughput, targetMs: PDF_TARGET_MS, met: pdfMet },
      seconds_total: Math.round((performance.now() - started) / 100) / 10,
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/invoices-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written ${file.pathname} (${result.seconds_total} s)`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
