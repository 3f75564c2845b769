/**
 * Where a ledger request's CPU and time go, stage by stage (bench/ledgerServer.ts with
 * LEDGER_STAGE_TIMING=1): the process's CPU time (process.cpuUsage, user + system) and the
 * clock (performance.now) read when a request arrives, when each stage of kernel/stages is
 * entered and left, and when the answer is written. A stage's own share is what passed between
 * its entry and its leaving minus what the stages it ran inside itself took (a stage runs the
 * ones after it within its own: the turn, the transaction and the idempotent write wrap them),
 * so the rows add up to the request. Its wait for the database counts in the clock, not the CPU;
 * the CPU of pg reading the answers on the socket counts in the stage that waits for them.
 *
 * The process's CPU is the whole process's: with one client at a time (BENCH_CLIENTS=1) it is
 * the request's own; with several, requests charge each other's work to whichever stage is
 * open, so only the one-client figures are read per stage. The readings cost CPU themselves
 * (two clock and two getrusage calls per stage), which the "per request" total includes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { observeStages, STAGES, type Flow, type StageName } from '../ledger-service/src/kernel/stages/index.ts';

interface Reading {
  cpu: number;
  wall: number;
}

const read = (): Reading => {
  const { user, system } = process.cpuUsage();
  return { cpu: user + system, wall: performance.now() * 1000 };
};

interface Open {
  at: Reading;
  /** what the stages run inside this one took, in full */
  inner: Reading;
}

interface RequestTimes {
  start: Reading;
  /** the stages open now, innermost last */
  open: Open[];
  /** when the outermost stage was left (undefined: no stage ran) */
  stagesLeft: Reading | undefined;
}

const BEFORE = 'before the stages (Koa, request scope, key, router)';
const AFTER = 'after the stages (Koa writes the answer)';
const REST = 'between requests (Node HTTP parsing, sockets, GC, timers)';

export class StageTiming {
  private readonly open = new WeakMap<IncomingMessage, RequestTimes>();
  private sums = new Map<string, Reading>();
  private count = 0;

  /** requests answered since the last reset */
  get requests(): number {
    return this.count;
  }
  private since = read();

  constructor(server: Server) {
    // first among the server's listeners, before Koa's: Koa's synchronous part counts as "before"
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const times: RequestTimes = { start: read(), open: [], stagesLeft: undefined };
      this.open.set(req, times);
      res.once('finish', () => this.finish(times));
    });
    observeStages({ enter: (flow, stage) => this.enter(flow, stage), leave: (flow, stage) => this.leave(flow, stage) });
  }

  /** Starts counting afresh (the measured part of a run begins). */
  reset(): void {
    this.sums = new Map();
    this.count = 0;
    this.since = read();
  }

  private add(name: string, cpu: number, wall: number): void {
    const sum = this.sums.get(name) ?? { cpu: 0, wall: 0 };
    sum.cpu += cpu;
    sum.wall += wall;
    this.sums.set(name, sum);
  }

  private enter(flow: Flow, _stage: StageName): void {
    const times = this.open.get(flow.ctx.req);
    if (!times) return;
    const now = read();
    if (times.open.length === 0) this.add(BEFORE, now.cpu - times.start.cpu, now.wall - times.start.wall);
    times.open.push({ at: now, inner: { cpu: 0, wall: 0 } });
  }

  private leave(flow: Flow, stage: StageName): void {
    const times = this.open.get(flow.ctx.req);
    const open = times?.open.pop();
    if (!times || !open) return;
    const now = read();
    const cpu = now.cpu - open.at.cpu;
    const wall = now.wall - open.at.wall;
    this.add(stage, cpu - open.inner.cpu, wall - open.inner.wall);
    const outer = times.open[times.open.length - 1];
    if (outer) {
      outer.inner.cpu += cpu;
      outer.inner.wall += wall;
    } else times.stagesLeft = now;
  }

  private finish(times: RequestTimes): void {
    const now = read();
    const from = times.stagesLeft ?? times.start;
    this.add(times.stagesLeft ? AFTER : 'requests without stages', now.cpu - from.cpu, now.wall - from.wall);
    this.count++;
  }

  /** The table: µs of CPU and of the clock per request, per stage in the order they ran. */
  report(): string {
    const total = read();
    const cpu = total.cpu - this.since.cpu;
    const wall = total.wall - this.since.wall;
    // no request (the plain-SQL stage after an API stage): what the idle server spends anyway
    // (timers, the job queue's polling), which a request's stages are charged while they are open
    if (this.count === 0)
      return `ledger idle: ${((cpu / wall) * 1e6).toFixed(0)} µs of CPU per second over ${(wall / 1e6).toFixed(1)} s\n`;
    const n = Math.max(1, this.count);
    let counted = 0;
    const order = [BEFORE, ...STAGES.map((s) => s.name), AFTER, 'requests without stages'];
    const rows = order.flatMap((name) => {
      const sum = this.sums.get(name);
      if (!sum) return [];
      counted += sum.cpu;
      return `  ${name.padEnd(58)} ${(sum.cpu / n).toFixed(0).padStart(7)} ${(sum.wall / n).toFixed(0).padStart(9)}`;
    });
    const rest = `  ${REST.padEnd(58)} ${((cpu - counted) / n).toFixed(0).padStart(7)} ${''.padStart(9)}`;
    return [
      `ledger stages: ${this.count} requests, µs per request (CPU, clock)`,
      ...rows,
      rest,
      `  ${'per request, all'.padEnd(58)} ${(cpu / n).toFixed(0).padStart(7)} ${(wall / n).toFixed(0).padStart(9)}`,
      '',
    ].join('\n');
  }
}
