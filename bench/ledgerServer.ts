/**
 * The ledger under benchmark, in its own process so the load generator does not share its
 * event loop. Env: BENCH_DATABASE_URL, BENCH_POOL (connections), BENCH_DATA_DIR. Prints
 * one JSON line {"url": ...} when listening; stops on SIGTERM.
 *
 * BENCH_CPU_PROF=<dir>: a CPU profile of the server from listening to SIGTERM, written to
 * <dir>/ledger-<pid>.cpuprofile (NODE_OPTIONS refuses --cpu-prof, and the profile should not
 * include start-up). BENCH_COUNT_QUERIES=1: on SIGTERM, prints to stderr how many SQL
 * statements the server sent, how many requests it answered, and its CPU time (user +
 * system) per request since listening. LEDGER_WRITE_TURNS is passed on (0: no write turns).
 * LEDGER_STAGE_TIMING=1: on SIGTERM, prints to stderr where a request's CPU and time go, per
 * stage (kernel/stages; stageTiming.ts); SIGUSR2 prints the figures since the last one (if
 * any request came) and starts afresh: bench/ledger.ts sends one before and after each API
 * stage, so warm-up and the plain-SQL stages are left out. BENCH_WORKERS=0: without the
 * background workers (mail, inbox, webhooks), whose polling of the job queue (10–16 ms of CPU a
 * second when idle) is otherwise charged to whatever request is open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants as perf } from 'node:perf_hooks';
import { join } from 'node:path';
import { loadConfig } from '../ledger-service/src/config.ts';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { startLedger } from '../ledger-service/src/server.ts';
import { StageTiming } from './stageTiming.ts';

// BENCH_GC=1: on SIGTERM, the garbage collections of each kind since listening and the main thread's time in them
const gcs = new Map<string, { count: number; ms: number }>();
const gcKinds: Record<number, string> = {
  [perf.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perf.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perf.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perf.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
if (process.env.BENCH_GC === '1') {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = gcKinds[(e as PerformanceEntry & { detail?: { kind: number } }).detail?.kind ?? -1] ?? 'other';
      const g = gcs.get(kind) ?? { count: 0, ms: 0 };
      g.count++;
      g.ms += e.duration;
      gcs.set(kind, g);
    }
  }).observe({ entryTypes: ['gc'] });
}
const url = process.env.BENCH_DATABASE_URL!;
const config = {
  ...loadConfig({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    LEDGER_PORT: '0',
    DATA_DIR: process.env.BENCH_DATA_DIR,
    // LEDGER_WRITE_TURNS=0: without the company's write turns (kernel/companyTurns.ts), to measure what they buy
    LEDGER_WRITE_TURNS: process.env.LEDGER_WRITE_TURNS,
  }),
};
// BENCH_PREPARED=0: without named prepared statements (db/knex.ts preparedAs), to measure what they buy
const db = createDb(url, {
  poolMax: Number(process.env.BENCH_POOL ?? 32),
  preparedStatements: process.env.BENCH_PREPARED !== '0',
});
const workers = process.env.BENCH_WORKERS === '0' ? ({ mail: false, inbox: false, webhooks: false } as const) : {};
const ledger = await startLedger({ config, database: { db, url, close: () => db.destroy() }, ...workers });

const counts = { statements: 0, requests: 0, cpu: process.cpuUsage() };
if (process.env.BENCH_COUNT_QUERIES) {
  db.on('query', () => counts.statements++);
  ledger.server.on('request', () => counts.requests++);
}
const timing = process.env.LEDGER_STAGE_TIMING === '1' ? new StageTiming(ledger.server) : undefined;
if (timing)
  process.on('SIGUSR2', () => {
    process.stderr.write(timing.report());
    timing.reset();
  });
const profileDir = process.env.BENCH_CPU_PROF;
const session = profileDir ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
// BENCH_HEAP_PROF=<dir>: a sampling heap profile (what allocates, by function) from listening to SIGTERM
const heapDir = process.env.BENCH_HEAP_PROF;
const heapSession = heapDir ? new Session() : undefined;
if (heapSession) {
  heapSession.connect();
  await heapSession.post('HeapProfiler.enable');
  await heapSession.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

process.stdout.write(`${JSON.stringify({ url: ledger.url })}\n`);
process.on('SIGTERM', () => {
  void (async () => {
    if (process.env.BENCH_COUNT_QUERIES) {
      const per = counts.requests ? (counts.statements / counts.requests).toFixed(2) : '-';
      const { user, system } = process.cpuUsage(counts.cpu);
      const each = (us: number) => (counts.requests ? (us / counts.requests).toFixed(0) : '-');
      process.stderr.write(
        `ledger: ${counts.statements} statements, ${counts.requests} requests (${per} each), ` +
          `CPU ${each(user + system)} µs each (user ${each(user)}, system ${each(system)})\n`,
      );
    }
    if (timing) process.stderr.write(timing.report());
    for (const [kind, g] of gcs)
      process.stderr.write(`gc ${kind}: ${g.count} (${g.ms.toFixed(0)} ms on the main thread)\n`);
    if (session && profileDir) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, `ledger-${process.pid}.cpuprofile`), JSON.stringify(profile));
    }
    if (heapSession && heapDir) {
      const { profile } = await heapSession.post('HeapProfiler.stopSampling');
      mkdirSync(heapDir, { recursive: true });
      writeFileSync(join(heapDir, `ledger-${process.pid}.heapprofile`), JSON.stringify(profile));
    }
    await ledger.close();
    await db.destroy();
  })().finally(() => process.exit(0));
});
