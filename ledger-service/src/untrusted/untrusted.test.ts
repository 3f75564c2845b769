import { readdirSync, readFileSync } from 'node:fs';
import t from 'tap';
import type { LedgerConfig } from '../config.ts';
import { apiClient, createTestCompany } from '../../test/helpers.ts';
import { startInboxLedger } from '../../test/support/inboxLedger.ts';
import { deeplyNestedCamt, hugePng, inflatingPdf } from '../../test/fixtures/hostile/files.ts';
import { fixture, VECTOR } from '../../test/fixtures/inbox/fixtures.ts';

/**
 * Files are read off the serving thread (pool.ts). A legitimate QR-bill PDF, whose render and
 * QR decode take real CPU, shows where the reading happens without any timing: the CPU each
 * thread of the process used is counted (/proc), and a parsing thread, not the serving one,
 * used the most (read on the serving thread, it fails: checked once by calling the job in
 * place of the pool). The hostile files below are refused within their limits (depth, header,
 * inflated size) and their tests show the refusals; while one company's file is
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

/**
 * CPU time (clock ticks, user and system) of every thread of this process by thread id, from
 * Linux's /proc: the ledger runs in the test's process, its serving thread is the main one.
 */
function threadTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // the fields after the command name in parentheses: state is the 3rd, utime the 14th, stime the 15th
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ticks;
}

t.test(
  'a legitimate QR-bill PDF, rendered and decoded for real, is read on a parsing thread: the serving thread ' +
    'spends less CPU than it and answers another company meanwhile',
  async (t) => {
    // no timing: where the CPU went is counted per thread. Rendering the page and decoding the QR code takes the
    // parsing thread far more CPU than the serving thread spends on the upload, the polls and the other answers;
    // read on the serving thread, the render would be counted there.
    const s = await startStack(t);
    const other = await createTestCompany(s.ledger);
    const otherApi = apiClient(s.ledger.url, other.dataset, other.apiKey);
    const before = threadTicks();
    let done = false;
    let answers = 0;
    const probe = (async () => {
      // a few answers show it; more would only add to the serving thread's count
      while (!done && answers < 5) {
        const res = await otherApi('GET', '/arap/vendor?limit=5');
        if (res.status === 200) answers++;
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const up = await s.upload('bill.pdf', fixture(VECTOR.file), 'application/pdf');
    t.equal(up.status, 201, JSON.stringify(up.body));
    let entry = up.body as { status: string; reason?: string };
    for (let i = 0; i < 300 && entry.status === 'new'; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      entry = (await s.api('GET', `/documents/inbox/${up.body.id}`)).body;
    }
    done = true;
    await probe;
    const after = threadTicks();
    t.equal(entry.status, 'extracted', `the QR-bill was read: ${JSON.stringify(entry)}`);

    const used = (tid: number) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
    const serving = used(process.pid);
    const [busiest, busiestTicks] = [...after.keys()]
      .filter((tid) => tid !== process.pid)
      .map((tid) => [tid, used(tid)] as const)
      .reduce((a, b) => (b[1] > a[1] ? b : a), [0, 0] as const);
    t.comment(`CPU ticks: serving thread ${serving}, busiest other thread (${busiest}) ${busiestTicks}`);
    t.ok(
      busiestTicks > serving,
      `another thread (${busiest}) did the reading: ${busiestTicks} CPU ticks, the serving thread ${serving}`,
    );
    t.ok(answers > 0, `the other company was answered ${answers} times while the PDF was read`);
  },
);

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
