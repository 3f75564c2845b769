import t from 'tap';
import type { LedgerConfig } from '../config.ts';
import { apiClient, createTestCompany } from '../../test/helpers.ts';
import { startInboxLedger } from '../../test/support/inboxLedger.ts';
import { deeplyNestedCamt, hugePng, inflatingPdf } from '../../test/fixtures/hostile/files.ts';
import { fixture, VECTOR } from '../../test/fixtures/inbox/fixtures.ts';

/**
 * Hostile files are read off the serving thread (pool.ts): while one company's file is
 * being read and refused, another company's requests are answered. The 500 ms bound is the
 * promise made in docs/operations.md, generous on purpose (a normal answer takes a few ms;
 * before the parsing threads, these files held every answer for 5 to 40 s).
 */
// npm test: runs alone (it bounds an answer at 500 ms while a hostile file is read: timing needs a quiet machine)

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function startStack(t: Teardown, overrides: Partial<LedgerConfig> = {}) {
  const ledger = await startInboxLedger(t, overrides);
  const attacker = await createTestCompany(ledger);
  const other = await createTestCompany(ledger);
  const api = apiClient(ledger.url, attacker.dataset, attacker.apiKey);
  const otherApi = apiClient(ledger.url, other.dataset, other.apiKey);

  /** Another company's reads, one after another, while `work` runs: the slowest answer, in ms. */
  async function slowestOtherAnswer<T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; slowest: number; answers: number }> {
    // warm: the first answers of a new process compile code paths, which is not what is measured
    for (let i = 0; i < 5; i++) await otherApi('GET', '/arap/vendor?limit=5');
    let done = false;
    let slowest = 0;
    let answers = 0;
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await otherApi('GET', '/arap/vendor?limit=5');
        if (res.status !== 200) throw new Error(`the other company got ${res.status}`);
        slowest = Math.max(slowest, performance.now() - started);
        answers++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      const result = await work();
      return { result, slowest, answers };
    } finally {
      done = true;
      await probe;
    }
  }

  const upload = async (name: string, data: Buffer, type: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), name);
    const res = await fetch(`${ledger.url}/client/${attacker.dataset}/documents/inbox`, {
      method: 'POST',
      headers: { 'X-API-Key': attacker.apiKey },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { id: number; status: string } };
  };
  /** polls until extraction has run (a generous bound against hanging, not a timing assertion) */
  const settled = async (id: number) => {
    for (let i = 0; i < 1200; i++) {
      const res = await api('GET', `/documents/inbox/${id}`);
      if (res.body.status !== 'new') return res.body as { status: string; reason?: string };
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`inbox entry ${id} was not extracted`);
  };
  /**
   * The other company's slowest answer while `work` runs, best of up to three tries: on a
   * loaded test machine (other test files on both cores) one try can be held up by the machine
   * rather than by the file. A file read on the serving thread held every answer for 5 to 40 s
   * on every try, so the 500 ms bound still tells the two apart.
   */
  async function slowestAnswerBestOfThree(t: { comment(msg: string): void }, work: () => Promise<unknown>) {
    let best = Number.POSITIVE_INFINITY;
    for (let attempt = 1; attempt <= 3 && best >= 500; attempt++) {
      const { slowest, answers } = await slowestOtherAnswer(work);
      t.comment(`try ${attempt}: ${answers} answers, the slowest in ${slowest.toFixed(0)} ms`);
      if (answers >= 1) best = Math.min(best, slowest);
    }
    return best;
  }
  return { ledger, api, upload, settled, slowestAnswerBestOfThree };
}

t.test(
  'a camt file of 30,000 nested elements: refused with 400 naming the depth; others answered meanwhile',
  async (t) => {
    const s = await startStack(t);
    const camt = deeplyNestedCamt(30_000);
    const slowest = await s.slowestAnswerBestOfThree(t, async () => {
      const result = await s.api('POST', '/bank/transactions/import', camt, { 'Content-Type': 'application/xml' });
      t.equal(result.status, 400, JSON.stringify(result.body));
      t.equal(result.body.error.code, 'invalid_request');
      t.match(result.body.error.message, /nested more than 64 deep/);
    });
    t.ok(slowest < 500, `the other company was answered, its slowest answer in ${slowest.toFixed(0)} ms`);
  },
);

t.test(
  'a PNG declaring 30,000 × 30,000 pixels: the entry fails from its header, nothing decoded; others answered meanwhile',
  async (t) => {
    const s = await startStack(t);
    const png = hugePng(30_000, 30_000);
    t.ok(png.length < 200_000, `small on the wire (${png.length} bytes)`);
    const slowest = await s.slowestAnswerBestOfThree(t, async () => {
      const up = await s.upload('huge.png', png, 'image/png');
      t.equal(up.status, 201, JSON.stringify(up.body));
      const entry = await s.settled(up.body.id);
      t.equal(entry.status, 'failed');
      t.match(entry.reason, /30000 × 30000 pixels \(900\.0 Mpx\); the inbox reads images up to 12 Mpx/);
    });
    t.ok(slowest < 500, `the other company was answered, its slowest answer in ${slowest.toFixed(0)} ms`);
  },
);

t.test(
  'a PDF whose page inflates to 300 MB: the entry fails before the page is read; others answered meanwhile',
  async (t) => {
    const s = await startStack(t);
    const pdf = await inflatingPdf(300);
    const slowest = await s.slowestAnswerBestOfThree(t, async () => {
      const up = await s.upload('bomb.pdf', pdf, 'application/pdf');
      t.equal(up.status, 201, JSON.stringify(up.body));
      const entry = await s.settled(up.body.id);
      t.equal(entry.status, 'failed');
      t.match(entry.reason, /inflates to more than 100 MiB/);
    });
    t.ok(slowest < 500, `the other company was answered, its slowest answer in ${slowest.toFixed(0)} ms`);
  },
);

t.test(
  'the time limit: a job past it is stopped; a statement is refused with 400, an inbox file fails with the limit ' +
    'as reason',
  async (t) => {
    // 1 ms from the moment the job begins (starting the thread is not counted): no parser reads
    // 20,000 rows or renders a PDF page in that time
    const s = await startStack(t, { fileJobs: { threads: 1, timeoutMs: 1, memoryMb: 256 } });
    const csv =
      'date,amount,currency,counterparty,iban,reference,description\n' +
      '2024-03-01,10.00,CHF,Muster AG,,,x\n'.repeat(20_000);
    const res = await s.api('POST', '/bank/transactions/import', csv, { 'Content-Type': 'text/csv' });
    t.equal(res.status, 400, JSON.stringify(res.body));
    t.match(
      res.body.error.message,
      /The statement file is not usable: Reading the statement file took longer than 0\.001 s; it was stopped/,
    );
    const up = await s.upload('bill.pdf', fixture(VECTOR.file), 'application/pdf');
    const entry = await s.settled(up.body.id);
    t.equal(entry.status, 'failed');
    t.match(entry.reason, /took longer than 0\.001 s/);
  },
);

t.test(
  'the start limit: a job that no thread began within it is refused as busy (503), not as a fault of the file',
  async (t) => {
    // 1 ms to start a thread and import the parser: never enough, so the job never begins
    const s = await startStack(t, { fileJobs: { threads: 1, timeoutMs: 20_000, memoryMb: 256, startMs: 1 } });
    const csv = 'date,amount,currency,counterparty,iban,reference,description\n2024-03-01,10.00,CHF,Muster AG,,,x\n';
    const res = await s.api('POST', '/bank/transactions/import', csv, { 'Content-Type': 'text/csv' });
    t.equal(res.status, 503, JSON.stringify(res.body));
    t.match(res.body.error.message, /No parsing thread could start reading the statement file within 0\.001 s/);
  },
);

t.test(
  'the memory limit: a job past the heap limit kills its thread, not the process; the next job runs on a new thread',
  async (t) => {
    // a CSV of 400,000 rows (36 MB) is read into several hundred MiB of rows and amounts: far more
    // than a 64 MiB heap holds, while a thread that reads a small file needs a fraction of it
    const s = await startStack(t, {
      fileLimit: 64 * 1024 * 1024,
      fileJobs: { threads: 1, timeoutMs: 120_000, memoryMb: 64 },
    });
    const header = 'date,amount,currency,counterparty,iban,reference,description\n';
    const big =
      header +
      '2024-03-01,10.00,CHF,Muster AG,CH9300762011623852957,,Rechnung 2024-0001 Muster AG Zürich\n'.repeat(400_000);
    const res = await s.api('POST', '/bank/transactions/import', big, { 'Content-Type': 'text/csv' });
    t.equal(res.status, 400, JSON.stringify(res.body));
    t.match(
      res.body.error.message,
      /The statement file is not usable: Reading the statement file needed more than 64 MiB of memory; it was stopped/,
    );
    // the ledger goes on serving, and a small file still parses (on a new thread)
    const small = `${header}2024-03-01,10.00,CHF,Muster AG,,,x\n`;
    const again = await s.api('POST', '/bank/transactions/import', small, { 'Content-Type': 'text/csv' });
    t.equal(again.status, 400, `the CSV was read (it names no account): ${JSON.stringify(again.body)}`);
    t.match(again.body.error.message, /does not name its account/);
  },
);
