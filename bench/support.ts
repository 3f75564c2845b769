/** What the benchmark parts share: the ledger process they measure and one HTTP load stage. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/** Throughput and latency of one stage. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
}

/** Starts `ledgerServer.ts` as its own process on `databaseUrl`; resolves with its URL once it listens. */
export function startLedgerProcess(databaseUrl: string, dataDir: string, pool: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./ledgerServer.ts', import.meta.url).pathname], {
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_POOL: String(pool), BENCH_DATA_DIR: dataDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, url: (JSON.parse(line) as { url: string }).url }));
    child.once('exit', (code) => reject(new Error(`ledger exited with ${code}`)));
  });
}

/** `connections` clients POSTing the same JSON body for `seconds` (autocannon). */
export async function postStage(url: string, path: string, apiKey: string, body: string, connections: number, seconds: number): Promise<Figures> {
  const r = await autocannon({
    url: `${url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body,
    connections,
    duration: seconds,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, count: r['2xx'], errors: r.non2xx + r.errors + r.timeouts };
}

/** The p-th percentile of ascending values (0 for none). */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
