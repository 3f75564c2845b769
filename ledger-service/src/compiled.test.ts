/**
 * The compiled platform reads untrusted files on its parsing threads: the threads load the
 * job modules the build writes beside the bundle (ledger-service/dist/statementJob.js and
 * extractJob.js, found by untrusted/job.ts), and those load their own packages (the XML
 * parser; pdfjs, the canvas and ZXing). The tests that run from the sources cover the same
 * jobs as TypeScript; this one is the build. That the reading happened on threads is shown by
 * where the ledger process spent its CPU, per thread (/proc, no timing): the statement is read
 * on a thread that starts for it, and a thread other than the serving one renders the PDF and
 * uses more CPU for it than the serving thread spends meanwhile.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { fixture as bankFixture } from '../test/fixtures/bank/support.ts';
import { fixture as inboxFixture, VECTOR } from '../test/fixtures/inbox/fixtures.ts';
import { baseEnv, ROOT, start, tmp } from '../test/platform.ts';

/** CPU ticks (user and system) of every thread of a process by thread id (Linux /proc). */
function threadTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // after the command name in parentheses: state is the 3rd field, utime the 14th, stime the 15th
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ticks;
}

// a real start of the whole platform, and a PDF rendered on a thread: more than the default time
t.setTimeout(900_000);

t.test('statements and inbox documents are parsed on threads of the compiled ledger', async (t) => {
  const dataDir = tmp('ledger-compiled-');
  const platform = await start(baseEnv(dataDir));
  t.teardown(() => platform.child.kill('SIGKILL'));
  for (const file of ['build.json']) t.ok(existsSync(join(ROOT, 'dist', file)), `dist/${file}: npm start built first`);
  for (const file of ['index.js', 'cli.js', 'statementJob.js', 'extractJob.js'])
    t.ok(existsSync(join(ROOT, 'ledger-service', 'dist', file)), `ledger-service/dist/${file}`);

  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
  const base = `${platform.url}/client/demo`;
  const headers = { 'X-API-Key': demo.api_key };

  // the ledger and the gateway run in the started process; its main thread serves requests
  const pid = platform.child.pid!;
  const beforeStatement = threadTicks(pid);
  // the demo's bank account has the statement's IBAN
  const imported = await fetch(`${base}/bank/transactions/import`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/xml' },
    body: bankFixture('camt.053.001.08.xml'),
  });
  const statement = (await imported.json()) as { imported: number; balanced: boolean };
  t.equal(imported.status, 200, JSON.stringify(statement));
  t.match(statement, { imported: 7, balanced: true }, 'camt.053 read on a thread (statementJob.js)');
  const afterStatement = threadTicks(pid);
  const started = [...afterStatement].filter(([tid, ticks]) => !beforeStatement.has(tid) && ticks > 0);
  t.ok(started.length > 0, `a thread started for the statement and worked: ${JSON.stringify(started)}`);

  const beforePdf = threadTicks(pid);

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(inboxFixture(VECTOR.file))], { type: 'application/pdf' }), 'bill.pdf');
  const upload = await fetch(`${base}/documents/inbox`, { method: 'POST', headers, body: form });
  const entry = (await upload.json()) as { id: number; status: string };
  t.equal(upload.status, 201, JSON.stringify(entry));
  // the extraction runs from the job queue: polled until it ran (a bound against hanging, not a
  // timing: on a loaded machine the queue's worker and the thread can take more than a minute),
  // twice a second, so the polls cost the serving thread little of the CPU counted below
  let read: { status: string; extracted?: { iban?: string; amount?: number } } = entry;
  // (at most 190 s: under the runner's 240 s per file, so a job that never ran is reported with the log below)
  for (let i = 0; i < 380 && read.status === 'new'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    read = (await (await fetch(`${base}/documents/inbox/${entry.id}`, { headers })).json()) as typeof read;
  }
  t.equal(read.status, 'extracted', 'the PDF rendered and its QR-bill decoded on a thread (extractJob.js)');
  if (read.status !== 'extracted')
    t.comment(
      platform
        .output()
        .split('\n')
        .filter((line) => !/[▀▄█]/.test(line))
        .join('\n'),
    );
  t.match(read.extracted, { iban: VECTOR.iban, amount: VECTOR.amount });
  const afterPdf = threadTicks(pid);
  const used = (tid: number) => (afterPdf.get(tid) ?? 0) - (beforePdf.get(tid) ?? 0);
  const [busiest, busiestTicks] = [...afterPdf.keys()]
    .filter((tid) => tid !== pid)
    .map((tid) => [tid, used(tid)] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a), [0, 0] as const);
  // CPU ticks (1/100 s) of one other thread: rendering the PDF and decoding its QR-bill takes some
  // 0.3–0.5 s of CPU, which a parse on the serving thread would leave there (Node's other threads
  // use a few ticks in that time). Not compared with the serving thread's own ticks: those grow
  // with the wall time of the wait (the polls above), which a loaded machine stretches.
  t.ok(
    busiestTicks >= 15,
    `the PDF was read on thread ${busiest}: ${busiestTicks} CPU ticks (the serving thread ${used(pid)})`,
  );

  platform.child.kill('SIGTERM');
  t.equal(await platform.exited, 0);
});
