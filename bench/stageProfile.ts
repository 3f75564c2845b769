/**
 * Where a gateway MCP call's CPU goes, by serving stage (bench/gateway.ts with
 * BENCH_GATEWAY_PROFILE): every sample of the V8 profile of the measured stages is charged to
 * the innermost named stage on its stack — an admission step (steps.ts), a PREPARE stage or a
 * serving path's claim or stage (serve/paths.ts) — else to "outside the stages" (the HTTP
 * server reading and writing, undici's socket reads, the request scope and metrics, GC).
 * Async stages are charged for their own turns (V8 keeps the async function on the stack when
 * it resumes); what runs in callbacks of their I/O is outside.
 */
import { readFileSync } from 'node:fs';
import { ADMISSION } from '../mcp-gateway/src/mcp/steps.ts';
import { PREPARE, SERVING_PATHS } from '../mcp-gateway/src/mcp/serve/paths.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const OUTSIDE = 'outside the stages';

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
    const name = byId.get(id)!.callFrame.functionName;
    const up = parent.get(id);
    const stage = known.has(name) ? name : up === undefined ? OUTSIDE : charge(up);
    stageOf.set(id, stage);
    return stage;
  };
  const time = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const stage = charge(id);
    time.set(stage, (time.get(stage) ?? 0) + dt);
  });
  return [...stages, OUTSIDE]
    .filter((s) => time.has(s))
    .map((stage) => ({ stage, share: (time.get(stage) ?? 0) / Math.max(1, busy) }));
}
