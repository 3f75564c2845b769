/**
 * Where a gateway MCP call's CPU goes, by serving stage (bench/gateway.ts with
 * BENCH_GATEWAY_PROFILE): every sample of the V8 profile of the measured stages is charged to
 * the innermost named stage on its stack — an admission step (steps.ts), a PREPARE stage or a
 * serving path's claim or stage (serve/paths.ts) — else to "outside the stages" (the HTTP
 * server reading and writing, undici's socket reads, the request scope and metrics, GC).
 * Async stages are charged for their own turns (V8 keeps the async function on the stack when
 * it resumes); what runs in callbacks of their I/O is outside, split by what it is
 * (`outsideKind`). The profiler's own stop (its inspector call) is left out.
 */
import { readFileSync } from 'node:fs';
import { ADMISSION } from '../mcp-gateway/src/mcp/steps.ts';
import { PREPARE, SERVING_PATHS } from '../mcp-gateway/src/mcp/serve/paths.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** What an outside sample is, by the frames on its stack (innermost first). */
function outsideKind(frames: readonly ProfileNode['callFrame'][]): string {
  if (frames[0]?.functionName === '(garbage collector)') return 'outside: garbage collection';
  if (frames.some((f) => /undici|ledgerClient/.test(f.url))) return 'outside: the ledger call (undici)';
  if (frames.some((f) => /requestScope|metrics|prom-client|logger|pino/.test(f.url)))
    return 'outside: request scope, log, metrics';
  if (frames.some((f) => /_http_|streams\/|stream_base|node:net/.test(f.url))) return 'outside: HTTP in and out (Node)';
  return 'outside: promise and timer turns, other';
}

export const OUTSIDE_KINDS = [
  'outside: HTTP in and out (Node)',
  'outside: the ledger call (undici)',
  'outside: request scope, log, metrics',
  'outside: garbage collection',
  'outside: promise and timer turns, other',
];

/** The stages in serving order, each with its share of the profile's busy samples (0..1). */
export function stageShares(file: string): { stage: string; share: number }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const stages = [...ADMISSION.names, ...PREPARE.names, ...new Set(SERVING_PATHS.flatMap((p) => p.names))];
  const known = new Set(stages);
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stageOf = new Map<number, string>();
  const charge = (id: number): string => {
    const cached = stageOf.get(id);
    if (cached) return cached;
    const frames: ProfileNode['callFrame'][] = [];
    let stage: string | undefined;
    for (let at: number | undefined = id; at !== undefined && !stage; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (known.has(frame.functionName)) stage = frame.functionName;
      frames.push(frame);
    }
    const charged = stage ?? (frames.some((f) => f.url === 'node:inspector') ? PROFILER : outsideKind(frames));
    stageOf.set(id, charged);
    return charged;
  };
  const time = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const stage = charge(id);
    if (stage === PROFILER) return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    time.set(stage, (time.get(stage) ?? 0) + dt);
  });
  return [...stages, ...OUTSIDE_KINDS]
    .filter((s) => time.has(s))
    .map((stage) => ({ stage, share: (time.get(stage) ?? 0) / Math.max(1, busy) }));
}

const PROFILER = 'the profiler itself';
