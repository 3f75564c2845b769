/**
 * Bank benchmark (issue 12): one real ledger (its own process, bench/ledgerServer.ts) on a
 * throw-away Postgres database with one company, its CHF bank account and 200 posted
 * customer invoices (each with its QR reference).
 *
 * 1. Import of a 10,000-entry camt.053.001.08 over HTTP (POST /bank/transactions/import):
 *    200 QR-reference credits paying the invoices (matched and booked as payments), 4,800
 *    other credits with creditor references and texts, 5,000 debits; every tenth entry a
 *    batch of two. Entries per second, and the ledger process's resident memory (VmRSS,
 *    sampled every 10 ms) above what it held just before the import. The same file imported
 *    a second time (all duplicates) is timed too. The ledger's CPU time for the import is
 *    printed beside the wall-clock rate, which a loaded machine lowers.
 *    50 bank rules are in place (docs/bank.md "Bank rules"): 49 that propose and match nothing,
 *    and one auto rule (counterparty contains "Supplier 1") that books its debits to 6900 at
 *    import, after the built-in matching (about 550 journal entries). Then the proposals:
 *    reading 1,000 unbooked lines with theirs (open invoices and rules scored per line).
 * 2. A pain.001 of 1,000 payments (POST /bank/payment_files) from 1,000 posted vendor bills
 *    (written in SQL), and reading it back (GET /bank/payment_files/{id}): milliseconds.
 * Targets: ≥ 2,000 entries/s (with the rules: the import within 10 s), RSS growth ≤ 100 MB (printed, never
 * asserted).
 *
 * Writes bench/results/bank-<time>.json. Env: BENCH_BANK_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/ledger_bench_bank; dropped and re-created).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recreateDatabase } from '../scripts/database.ts';
import { createBenchCompany, startLedgerProcess } from './support.ts';
import { createDb, withTenant, type Db } from '../ledger-service/src/db/knex.ts';
import { qrReference, creditorReference } from '../shared/src/references.ts';

const DB_URL = process.env.BENCH_BANK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_bank';
const ENTRIES = 10_000;
const INVOICES = 200;
const PAYMENTS = 1_000;
const RATE_TARGET = 2_000;
const RULES = 50;
const RULES_SECONDS_TARGET = 10;
const RSS_TARGET_MB = 100;
const IBAN = 'CH9300762011623852957';

/** The ledger process's resident set size in bytes (Linux /proc), or 0 where there is none. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds (user + system) the ledger process has used so far (Linux /proc; 0 elsewhere).
 * On a shared machine the wall-clock rate depends on the load; the CPU time the import took
 * in the ledger does much less.
 */
function cpuSecondsOf(pid: number): number {
  try {
    // fields after the command name "(…)": utime and stime are the 12th and 13th, in clock ticks (100 per second on
    // Linux)
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A 10,000-entry statement, compact (no indentation) so it stays within the 10 MiB file limit. */
export function statement(invoices: { qr: string; gross: string }[]): { xml: string; transactions: number } {
  const entries: string[] = [];
  let balance = 0n; // in centimes
  let transactions = 0;
  const bal = (code: string, cents: bigint) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">` +
    `${(Number(cents < 0n ? -cents : cents) / 100).toFixed(2)}</Amt>` +
    `<CdtDbtInd>${cents < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>2025-03-31</Dt></Dt></Bal>`;
  const tx = (cents: bigint, party: string, rmt: string, e2e: string) => {
    const credit = cents > 0n;
    const amt = (Number(credit ? cents : -cents) / 100).toFixed(2);
    return (
      `<TxDtls><Refs><EndToEndId>${e2e}</EndToEndId></Refs><Amt Ccy="CHF">${amt}</Amt><CdtDbtInd>` +
      `${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>` +
      `<RltdPties><${credit ? 'Dbtr' : 'Cdtr'}><Pty><Nm>${party}</Nm></Pty></${credit ? 'Dbtr' : 'Cdtr'}>` +
      `<${credit ? 'DbtrAcct' : 'CdtrAcct'}><Id><IBAN>CH5604835012345678009</IBAN></Id></` +
      `${credit ? 'DbtrAcct' : 'CdtrAcct'}></RltdPties><RmtInf>${rmt}</RmtInf></TxDtls>`
    );
  };
  const strd = (kind: 'Prtry' | 'Cd', type: string, ref: string) =>
    `<Strd><CdtrRefInf><Tp><CdOrPrtry><${kind}>${type}</${kind}></CdOrPrtry></Tp><Ref>${ref}</Ref></CdtrRefInf></Strd>`;
  for (let i = 0; i < ENTRIES; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    let details: { cents: bigint; xml: string }[];
    if (i < INVOICES) {
      const inv = invoices[i]!;
      const cents = BigInt(Math.round(Number(inv.gross) * 100));
      details = [{ cents, xml: tx(cents, `Customer ${i}`, strd('Prtry', 'QRR', inv.qr), 'NOTPROVIDED') }];
    } else if (i % 10 === 0) {
      details = [0, 1].map((k) => {
        const cents = BigInt(1000 + ((i * 7 + k) % 90000));
        return { cents, xml: tx(cents, `Batch payer ${i}-${k}`, `<Ustrd>Collective ${i}/${k}</Ustrd>`, `B-${i}-${k}`) };
      });
    } else if (i % 2 === 0) {
      const cents = BigInt(500 + ((i * 13) % 250000));
      details = [{ cents, xml: tx(cents, `Payer ${i}`, strd('Cd', 'SCOR', creditorReference(100000 + i)), `C-${i}`) }];
    } else {
      const cents = -BigInt(500 + ((i * 11) % 200000));
      details = [{ cents, xml: tx(cents, `Supplier ${i}`, `<Ustrd>Invoice S-${i}</Ustrd>`, `D-${i}`) }];
    }
    const total = details.reduce((s, d) => s + d.cents, 0n);
    balance += total;
    transactions += details.length;
    const credit = total > 0n;
    entries.push(
      `<Ntry><Amt Ccy="CHF">${(Number(credit ? total : -total) / 100).toFixed(2)}</Amt><CdtDbtInd>` +
        `${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>` +
        `<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2025-03-${day}</Dt></BookgDt><ValDt><Dt>2025-03-` +
        `${day}</Dt></ValDt><AcctSvcrRef>BENCH-${i}</AcctSvcrRef>` +
        `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>` +
        `${credit ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
        `<NtryDtls>${details.length > 1 ? `<Btch><NbOfTxs>${details.length}</NbOfTxs></Btch>` : ''}` +
        `${details.map((d) => d.xml).join('')}</NtryDtls></Ntry>`,
    );
  }
  const opening = 1_000_000_00n;
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?><Document ' +
    'xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>' +
    '<GrpHdr><MsgId>BENCH-1</MsgId><CreDtTm>2025-03-31T20:00:00</CreDtTm></GrpHdr><Stmt><Id>BENCH-2025-03</Id>' +
    `<Acct><Id><IBAN>${IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>${bal('OPBD', opening)}` +
    `${bal('CLBD', opening + balance)}${entries.join('')}</Stmt></BkToCstmrStmt></Document>`;
  return { xml, transactions };
}

async function setup(db: Db, dataDir: string) {
  const { company, apiKey } = await createBenchCompany(db, DB_URL, dataDir);
  return { company, apiKey };
}

export async function run(): Promise<void> {
  console.log(
    `bank bench: ${DB_URL}, camt.053 of ${ENTRIES.toLocaleString('en')} entries, pain.001 of ` +
      `${PAYMENTS.toLocaleString('en')} payments`,
  );
  await recreateDatabase(DB_URL);
  const db = createDb(DB_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-bank-'));
  let child: Awaited<ReturnType<typeof startLedgerProcess>>['child'] | undefined;
  try {
    const { company, apiKey } = await setup(db, dataDir);
    const ledger = await startLedgerProcess(DB_URL, dataDir, 4);
    child = ledger.child;
    const call = async (method: string, path: string, body?: string, type = 'application/json') => {
      const res = await fetch(`${ledger.url}/client/bench${path}`, {
        method,
        headers: { 'X-API-Key': apiKey, ...(body ? { 'Content-Type': type } : {}) },
        body,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return text ? (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) : undefined;
    };

    const bank = await call(
      'POST',
      '/bank/accounts',
      JSON.stringify({
        name: 'Bench bank',
        iban: IBAN,
        qr_iban: 'CH4431999123000889012',
        currency: 'CHF',
        account: '1020',
      }),
    );
    await call('POST', '/system/company', JSON.stringify({ invoice_bank_account_id: bank.id }));
    const customer = await call('POST', '/arap/customer', JSON.stringify({ name: 'Bench customer' }));
    const invoices: { qr: string; gross: string }[] = [];
    for (let i = 0; i < INVOICES; i++) {
      const { id } = await call(
        'POST',
        '/arap/invoice/customer',
        JSON.stringify({
          customer_id: customer.id,
          invDate: '2025-03-01',
          pending: '0',
          items: [{ description: 'Service', quantity: 1, price: 100 + i, account: '3400' }],
        }),
      );
      const read = await call('GET', `/arap/invoice/customer/${id}`);
      invoices.push({ qr: read.qr_reference ?? qrReference(i + 1), gross: String(read.grossAmount) });
    }
    for (let i = 0; i < RULES - 1; i++) {
      await call(
        'POST',
        '/bank/rules',
        JSON.stringify({
          name: `Proposing rule ${i}`,
          conditions: { counterparty: `Nobody ${i}`, amount_min: 1 },
          action: { kind: 'book', account: '6700' },
        }),
      );
    }
    await call(
      'POST',
      '/bank/rules',
      JSON.stringify({
        name: 'Supplier 1…',
        auto: true,
        conditions: { direction: 'out', counterparty: 'Supplier 1' },
        action: { kind: 'book', account: '6900' },
      }),
    );
    const { xml, transactions } = statement(invoices);
    const megabytes = Math.round((Buffer.byteLength(xml) / 1024 / 1024) * 10) / 10;

    // warm-up: the import path once on a small file, so the measurement is not the first use of the code
    await call(
      'POST',
      `/bank/transactions/import?account=${bank.id}`,
      'date,amount,currency,counterparty,iban,reference,description\n2025-02-01,1.00,CHF,Warm,,,up\n',
      'text/csv',
    );
    const before = rssOf(child.pid!);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(child!.pid!));
    }, 10);
    const cpu0 = cpuSecondsOf(child.pid!);
    const t0 = performance.now();
    const result = await call('POST', '/bank/transactions/import', xml, 'application/xml');
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = Math.round((cpuSecondsOf(child.pid!) - cpu0) * 100) / 100;
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(child.pid!));
    const t1 = performance.now();
    const again = await call('POST', '/bank/transactions/import', xml, 'application/xml');
    const secondsAgain = (performance.now() - t1) / 1000;
    const rate = Math.round(ENTRIES / seconds);
    const t4 = performance.now();
    const page = (await call('GET', '/bank/transactions?status=unmatched&limit=1000')) as { proposals: unknown[] }[];
    const proposalsMs = Math.round(performance.now() - t4);
    const proposed = page.filter((l) => l.proposals.length > 0).length;
    const rssGrowthMb = Math.round(((peak - before) / 1024 / 1024) * 10) / 10;

    // 1,000 posted vendor bills to pay, written in SQL (the API's own posting is measured elsewhere)
    const vendor = await call('POST', '/arap/vendor', JSON.stringify({ name: 'Bench Lieferant Müller AG' }));
    const vendorBank = await call(
      'POST',
      `/arap/vendor/${vendor.id}/bank_accounts`,
      JSON.stringify({ iban: 'CH58 0079 1123 0008 8901 2', name: 'Müller AG' }),
    );
    await withTenant(db, company.id, async (tx) => {
      const [ap] = await tx('accounts').where({ accno: '2000' }).select('id');
      await tx('arap_transactions').insert(
        Array.from({ length: PAYMENTS }, (_, i) => ({
          company_id: company.id,
          vc: 'vendor',
          type: 'transaction',
          party_id: vendor.id,
          inv_number: `BENCH-AP-${i + 1}`,
          inv_date: '2025-03-01',
          currency: i % 5 === 0 ? 'EUR' : 'CHF',
          exchangerate: i % 5 === 0 ? '0.95' : '1',
          record_account_id: ap!.id,
          status: 'posted',
          payment_file: true,
          vc_bank_id: vendorBank.id,
          payment_reference: i % 3 === 0 ? creditorReference(5000 + i) : null,
          net_amount: `${10 + i}`,
          tax_amount: '0',
          amount: `${10 + i}`,
          paid: '0',
        })),
      );
    });
    const t2 = performance.now();
    const file = await call(
      'POST',
      '/bank/payment_files',
      JSON.stringify({ bank_account_id: bank.id, execution_date: '2025-04-01' }),
    );
    const createMs = Math.round(performance.now() - t2);
    const t3 = performance.now();
    const painXml = (await call('GET', `/bank/payment_files/${file.id}`)) as string;
    const readMs = Math.round(performance.now() - t3);

    const out = {
      at: new Date().toISOString(),
      import: {
        entries: ENTRIES,
        transactions,
        megabytes,
        seconds: Math.round(seconds * 100) / 100,
        entries_per_second: rate,
        ledger_cpu_seconds: cpuSeconds,
        imported: result.imported,
        matched: result.matched,
        balanced: result.balanced,
        rss_before_mb: Math.round(before / 1024 / 1024),
        rss_peak_mb: Math.round(peak / 1024 / 1024),
        rss_growth_mb: rssGrowthMb,
        second_import_seconds: Math.round(secondsAgain * 100) / 100,
        second_import_duplicates: again.duplicates,
        rules: RULES,
        proposals_page_ms: proposalsMs,
        proposals_page_lines: page.length,
        proposals_page_proposed: proposed,
      },
      payment_file: {
        payments: file.count,
        create_ms: createMs,
        read_ms: readMs,
        kilobytes: Math.round(Buffer.byteLength(painXml) / 1024),
      },
      targets: {
        entries_per_second: RATE_TARGET,
        rss_growth_mb: RSS_TARGET_MB,
        import_with_rules_seconds: RULES_SECONDS_TARGET,
      },
    };
    console.log(
      `  camt.053 ${megabytes} MB, ${ENTRIES} entries (${transactions} transactions): ${out.import.seconds} s, ` +
        `${rate} entries/s ` +
        `(target ≥ ${RATE_TARGET}: ${rate >= RATE_TARGET ? 'met' : 'not met'}; the ledger used ${cpuSeconds} s ` +
        `of CPU); imported ${result.imported}, matched ${result.matched}, balanced ${result.balanced}`,
    );
    console.log(
      `  ledger RSS ${out.import.rss_before_mb} MB before, ${out.import.rss_peak_mb} MB peak: +${rssGrowthMb} ` +
        `MB (target ≤ ${RSS_TARGET_MB}: ${rssGrowthMb <= RSS_TARGET_MB ? 'met' : 'not met'})`,
    );
    console.log(
      `  with ${RULES} bank rules (one auto): import ${out.import.seconds} s (target ≤ ${RULES_SECONDS_TARGET} s: ` +
        `${seconds <= RULES_SECONDS_TARGET ? 'met' : 'not met'}); proposals for ${page.length} unbooked lines ` +
        `read in ` +
        `${proposalsMs} ms (${proposed} with a proposal)`,
    );
    console.log(`  the same file again: ${out.import.second_import_seconds} s, ${again.duplicates} duplicates`);
    console.log(
      `  pain.001 of ${file.count} payments: created in ${createMs} ms, read in ${readMs} ms (` +
        `${out.payment_file.kilobytes} KB)`,
    );
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const target = new URL(`./results/bank-${out.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`written ${target.pathname}`);
  } finally {
    child?.kill('SIGTERM');
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
