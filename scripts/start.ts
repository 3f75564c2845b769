/**
 * `npm start`: configuration from the environment, the database (embedded PGlite under
 * ./data when DATABASE_URL is unset), migrations, the demo company on the first start of
 * an empty embedded database, then the ledger (LEDGER_PORT, 3001) and, once it exists,
 * the gateway (PORT, 3000). SIGTERM / SIGINT let in-flight requests finish, then stop.
 * While it runs on the embedded database, `ledger` CLI commands reach that database through
 * this process (the address is in <DATA_DIR>/embedded.lock).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, type LedgerConfig } from '../ledger-service/src/config.ts';
import { openDatabase, startLedger, type Database } from '../ledger-service/src/server.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';
import { createDemo, type DemoInfo } from '../ledger-service/src/demo.ts';
import { demoText } from '../ledger-service/src/cli/commands/demo.ts';
import { loadEncryptionKey } from '../ledger-service/src/secretKey.ts';
import { publishEmbeddedUrl } from '../ledger-service/src/db/embeddedLock.ts';
import { onShutdownSignal } from '../ledger-service/src/lifecycle.ts';
import type { Db } from '../ledger-service/src/db/knex.ts';

interface Stoppable {
  url: string;
  close(): Promise<void>;
}

/**
 * ── GATEWAY START ──────────────────────────────────────────────────────────────────
 * The MCP/OAuth gateway (mcp-gateway/) is started here, next to the ledger: on PORT
 * (default 3000, the public origin PUBLIC_URL), forwarding /client/* to `ledgerUrl`.
 * Until the gateway package exports a start function this returns undefined and only
 * the ledger runs. Return its handle so shutdown closes it before the ledger.
 */
async function startGatewayIfAvailable(env: NodeJS.ProcessEnv, ledgerUrl: string): Promise<Stoppable | undefined> {
  const { loadConfig: loadGatewayConfig, ConfigError: GatewayConfigError } = await import('../mcp-gateway/src/config.ts');
  const { startGateway } = await import('../mcp-gateway/src/server.ts');
  try {
    // the gateway writes <DATA_DIR>/gateway-public.jwk, which the ledger reads for its credentials
    return await startGateway({ config: loadGatewayConfig({ ...env, LEDGER_URL: env.LEDGER_URL || ledgerUrl }) });
  } catch (err) {
    if (err instanceof GatewayConfigError) throw new ConfigError(err.message);
    throw err;
  }
}

/** The first start of an empty embedded database creates the demo company. */
async function demoOnFirstStart(config: LedgerConfig, db: Db): Promise<DemoInfo | undefined> {
  if (config.databaseUrl) return undefined;
  const existing = await db('companies').first('id');
  if (existing) return undefined;
  const demo = await createDemo(db, loadEncryptionKey(config), { publicUrl: config.publicUrl });
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(join(config.dataDir, 'demo.json'), `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const database: Database = await openDatabase(config);
  await migrateLatest(database.db);
  const demo = await demoOnFirstStart(config, database.db);
  // from now on `ledger` CLI commands work through this process's embedded Postgres
  if (!config.databaseUrl) publishEmbeddedUrl(config.dataDir, database.url);

  const ledger = await startLedger({ config, database });
  const gateway = await startGatewayIfAvailable(process.env, ledger.url);

  const lines = [
    `ledger listening on ${ledger.url}${config.databaseUrl ? '' : ` (embedded database in ${join(config.dataDir, 'pglite')})`}`,
    gateway ? `gateway listening on ${gateway.url}` : `gateway not started: use the ledger directly at ${ledger.url}/client/<dataset>`,
  ];
  if (demo) {
    lines.push('', ...demoText(demo), `  (also written to ${join(config.dataDir, 'demo.json')})`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  onShutdownSignal(async () => {
    await gateway?.close();
    await ledger.close();
    await database.close();
  }, (msg) => ledger.log.info(msg));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`start: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`start: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
