// npm test: runs from source (its jobs are TypeScript fixtures started as threads, which need tsx)
/**
 * Fair shares of the parsing threads (pool.ts): one company's files take at most `companyJobs`
 * places among the running and waiting jobs, so another company's file still finds room in the
 * queue while the first company's flood is refused with 503.
 */
import t from 'tap';
import { FileJobs, FileRefused, jobRef } from './index.ts';

const hold = jobRef<{ gate: Int32Array; name: string }, string>(
  new URL('../../test/fixtures/untrusted/holdJob.ts', import.meta.url).href,
  'hold',
);

t.test("one company's flood is refused past its share; another company's file is still taken", async (t) => {
  const jobs = new FileJobs({
    threads: 1,
    timeoutMs: 120_000,
    startMs: 120_000,
    memoryMb: 128,
    maxBytes: 1000,
    maxQueue: 3,
    companyJobs: 2,
  });
  t.teardown(() => jobs.close());
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const run = (company: number, name: string) =>
    jobs.run(hold, { gate, name }, { bytes: 10, what: 'file', company }).then(
      (value) => ({ value }),
      (err: unknown) => ({ err }),
    );

  // company 1 sends five files at once: two are taken (one reading, one waiting), three refused
  const flood = ['a', 'b', 'c', 'd', 'e'].map((name) => run(1, name));
  const refusals = (await Promise.all(flood.slice(2))).map((r) => ('err' in r ? r.err : undefined));
  for (const err of refusals) {
    t.ok(err instanceof FileRefused, 'refused');
    t.match(err, { code: 'unavailable', limit: 'busy', message: /Too many files of this company/ });
  }
  t.equal(jobs.companyLoad(1), 2, 'its share: two');

  // company 2's file is taken although company 1 is still busy
  const other = run(2, 'other');
  t.equal(jobs.companyLoad(2), 1);

  Atomics.store(gate, 0, 1);
  Atomics.notify(gate, 0);
  t.same(await Promise.all([flood[0], flood[1], other]), [{ value: 'a' }, { value: 'b' }, { value: 'other' }]);
  t.equal(jobs.companyLoad(1), 0, 'nothing kept once done');
  t.equal(jobs.companyLoad(2), 0);
});
