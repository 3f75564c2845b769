/** What the benchmark parts share: the ledger process they measure and one HTTP load stage. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { loadConfig } from '../ledger-service/src/config.ts';
import { addMember, createCompany, type Company } from '../ledger-service/src/db/companies.ts';
import type { Db } from '../ledger-service/src/db/knex.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';
import { createApiKey } from '../ledger-service/src/db/apiKeys.ts';
import { createUser } from '../ledger-service/src/db/users.ts';
import { loadEncryptionKey } from '../ledger-service/src/secretKey.ts';

/** Throughput and latency of one stage. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  count: number;
  errors: number;
}

/**
 * Starts `ledgerServer.ts` as its own process on `databaseUrl`; resolves with its URL once it listens.
 * BENCH_NODE_ARGS: node's own options for that process, space-separated (V8 flags NODE_OPTIONS refuses,
 * e.g. `--trace-opt --trace-deopt`: what V8 compiles while the stages run); its output on stdout is
 * passed to stderr.
 */
export function startLedgerProcess(
  databaseUrl: string,
  dataDir: string,
  pool: number,
): Promise<{ child: ChildProcess; url: string }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = new URL('./ledgerServer.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', server], {
    env: {
      ...process.env,
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_POOL: String(pool),
      BENCH_DATA_DIR: dataDir,
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (nodeArgs.length > 0) child.stdout!.on('data', (d: Buffer) => process.stderr.write(d));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    // the first line that is the server's own (a V8 trace may come before it)
    lines.on('line', (line) => {
      if (line.startsWith('{"url"')) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) => reject(new Error(`ledger exited with ${code}`)));
  });
}

/**
 * `connections` clients POSTing the same JSON body for `seconds` (autocannon); `keyed`: each
 * request with a new Idempotency-Key (the claim and the kept answer are part of the cost).
 */
export async function postStage(
  url: string,
  path: string,
  apiKey: string,
  body: string,
  connections: number,
  seconds: number,
  keyed = false,
): Promise<Figures> {
  const r = await autocannon({
    url: `${url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body,
    connections,
    duration: seconds,
    ...(keyed
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                headers: { ...req.headers, 'idempotency-key': randomUUID() },
              }),
            },
          ],
        }
      : {}),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    count: r['2xx'],
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

/** The p-th percentile of ascending values (0 for none). */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A migrated benchmark database with the company `bench`, its owner and an API key. */
export async function createBenchCompany(
  db: Db,
  databaseUrl: string,
  dataDir: string,
): Promise<{ company: Company; userId: number; apiKey: string }> {
  await migrateLatest(db);
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const company = await createCompany(db, { dataset: 'bench', name: 'Bench AG', currency: 'CHF' });
  const user = await createUser(db, loadEncryptionKey(config), {
    email: 'bench@example.com',
    name: 'Bench',
    password: 'bench-password-1',
  });
  await addMember(db, company.id, user.id, 'owner', null);
  const key = await createApiKey(db, company.id, user.id, 'bench');
  return { company, userId: user.id, apiKey: key.key };
}
