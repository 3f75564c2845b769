/**
 * `npm start` (compiled to dist/start.js; scripts/start.mjs builds it when missing or stale):
 * the ledger and the gateway in one process, on the embedded database under ./data when
 * DATABASE_URL is unset.
 *
 * The order is what makes a failed start leave nothing behind:
 * 1. every setting of both services is read and checked (a bad one: one line, exit 2);
 * 2. every port is taken (PORT, LEDGER_PORT, GATEWAY_METRICS_PORT; a taken one: one line
 *    naming the variable and the port, exit 2) — only then is anything written;
 * 3. the database is opened (the embedded one is locked: <DATA_DIR>/embedded.lock) and migrated;
 * 4. on the first start of an empty embedded database the demo company is made and written to
 *    <DATA_DIR>/demo.json, while the ports are still held (so no port can fail the start
 *    after it) and before anything serves (so no request sees half of it, and nothing else
 *    queues on the embedded database's one connection meanwhile);
 * 5. the ledger and the gateway listen on the ports held in 2;
 * 6. `ledger` CLI commands may now work through this process's embedded Postgres (the
 *    address goes into the lock), and the demo's credentials are printed with its second
 *    factor as a QR code.
 * A failure after 3 closes what was opened, which releases the lock. SIGINT/SIGTERM/SIGHUP
 * are handled from the first line on: during the start they stop it after the current step;
 * once running, requests in flight finish (shared/src/lifecycle.ts).
 *
 * Only the two packages' config and index modules (and the ledger's database module) are
 * imported, so the compiled start uses their builds. The settings are read with the config
 * modules alone; the services' code (the index modules) is loaded once they are known to be
 * good, so a refusal comes at once, and while it loads the database is already being opened
 * (PGlite compiles its WebAssembly on other threads meanwhile).
 */
import { join } from 'node:path';
import { ConfigError, type EnvVars } from '@ledger/shared/config';
import { onStopSignals } from '@ledger/shared/lifecycle';
import { holdPorts, type HeldPorts, type PortClaim } from '@ledger/shared/ports';
import * as ledgerSettings from '../ledger-service/src/config.ts';
import * as gatewaySettings from '../mcp-gateway/src/config.ts';
import * as ledgerDatabase from '../ledger-service/src/db/database.ts';

type LedgerService = typeof import('../ledger-service/src/index.ts');
type GatewayService = typeof import('../mcp-gateway/src/index.ts');

/** A start that was asked to stop (a signal) before it was up: not an error. */
class Stopped extends Error {}

/** The ConfigError class of each bundle (each compiled package carries its own copy of shared/). */
function isConfigError(err: unknown): err is Error {
  return (
    err instanceof ConfigError ||
    err instanceof ledgerSettings.ConfigError ||
    err instanceof gatewaySettings.ConfigError
  );
}

interface Settings {
  ledger: ledgerSettings.LedgerConfig;
  gateway: gatewaySettings.GatewayConfig;
}

/**
 * Both services' settings from one environment. The gateway reaches the ledger on the
 * ledger's own address unless LEDGER_URL says otherwise.
 */
function readSettings(env: EnvVars): Settings {
  const ledger = ledgerSettings.loadConfig(env);
  const ledgerHost = ledger.host === '0.0.0.0' ? '127.0.0.1' : ledger.host;
  const gateway = gatewaySettings.loadConfig({
    ...env,
    LEDGER_URL: env.LEDGER_URL || `http://${ledgerHost}:${ledger.port}`,
  });
  return { ledger, gateway: { ...gateway, demo: !ledger.databaseUrl } };
}

function portClaims(s: Settings): PortClaim[] {
  return [
    { variable: 'PORT', host: s.gateway.host, port: s.gateway.port },
    { variable: 'LEDGER_PORT', host: s.ledger.host, port: s.ledger.port },
    ...(s.gateway.metricsPort === undefined
      ? []
      : [{ variable: 'GATEWAY_METRICS_PORT', host: s.gateway.metricsHost, port: s.gateway.metricsPort }]),
  ];
}

async function main(): Promise<void> {
  const out = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
  const stop = onStopSignals({ log: (line) => process.stderr.write(`start: ${line}\n`) });
  const checkpoint = () => {
    if (stop.requested) throw new Stopped();
  };
  /** what to undo if the start fails or is stopped, last opened first */
  const opened: (() => Promise<void>)[] = [];
  const closeOpened = async () => {
    for (const close of opened.reverse()) await close();
    opened.length = 0;
  };

  // 1. settings, 2. ports: nothing is written before both are known to be good
  let settings = readSettings(process.env);
  const held: HeldPorts = await holdPorts(portClaims(settings));
  opened.push(held.release);
  // a port of 0 is the one the system gave us from now on, so PUBLIC_URL's default and the
  // gateway's LEDGER_URL name the ports actually listened on
  settings = readSettings({
    ...process.env,
    PORT: String(held.ports.PORT),
    LEDGER_PORT: String(held.ports.LEDGER_PORT),
    ...(held.ports.GATEWAY_METRICS_PORT === undefined
      ? {}
      : { GATEWAY_METRICS_PORT: String(held.ports.GATEWAY_METRICS_PORT) }),
  });
  const { ledger: config, gateway: gatewayConfig } = settings;

  /** the demo made by this start, until its credentials are printed */
  let demo: Awaited<ReturnType<typeof demoOnFirstStart>>;
  try {
    // 3. the database, opened while the services' code is read
    const [code, opening] = await Promise.allSettled([
      Promise.all([
        import('../ledger-service/src/index.ts') as Promise<LedgerService>,
        import('../mcp-gateway/src/index.ts') as Promise<GatewayService>,
      ]),
      ledgerDatabase.openDatabase(config),
    ]);
    if (opening.status === 'fulfilled') opened.push(() => opening.value.close());
    if (code.status === 'rejected') throw code.reason;
    if (opening.status === 'rejected') throw opening.reason;
    const [ledgerService, gatewayService] = code.value;
    const database = opening.value;
    checkpoint();
    await ledgerService.migrateLatest(database.db);
    checkpoint();

    // 4. the demo on a first start
    demo = config.databaseUrl ? undefined : await demoOnFirstStart(ledgerService, config, database);

    // 5. both services, on the ports held until now
    await held.release();
    const ledger = await ledgerService.startLedger({ config, database });
    opened.push(() => ledger.close());
    const gateway = await gatewayService.startGateway({ config: gatewayConfig });
    opened.push(() => gateway.close());

    // 6. from now on `ledger` CLI commands work through this process's embedded Postgres
    if (!config.databaseUrl) ledgerService.publishEmbeddedUrl(config.dataDir, database.url);

    const lines = [
      `ledger listening on ${ledger.url}` +
        `${config.databaseUrl ? '' : ` (embedded database in ${join(config.dataDir, 'pglite')})`}`,
      `gateway listening on ${gateway.url}; public origin ${gatewayConfig.publicUrl}`,
    ];
    if (demo) {
      lines.push(
        '',
        ...ledgerService.demoLines(demo, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }),
        `  (also written to ${ledgerService.demoFile(config.dataDir)}; "npx ledger demo show" prints this again)`,
      );
    }
    out(lines);
    demo = undefined;
    checkpoint();
  } catch (err) {
    await closeOpened();
    // a start that fails after making the demo (a port taken in the moment between letting go
    // of it and listening): the next start finds a company and makes none, so say where it is
    if (demo)
      process.stderr.write(
        `start: the demo company "${demo.dataset}" was made; "npx ledger demo show" prints its credentials\n`,
      );
    throw err;
  }

  await stop.whenRequested;
  // the gateway first: its requests in flight may still be waiting for the ledger
  await closeOpened();
}

/** The first start of an empty embedded database makes the demo company. */
async function demoOnFirstStart(
  ledgerService: LedgerService,
  config: ledgerSettings.LedgerConfig,
  database: ledgerDatabase.Database,
): Promise<Awaited<ReturnType<LedgerService['createDemo']>> | undefined> {
  if (await database.db('companies').first('id')) return undefined;
  const demo = await ledgerService.createDemo(database.db, ledgerService.loadEncryptionKey(config), {
    publicUrl: config.publicUrl,
  });
  ledgerService.writeDemoFile(config.dataDir, demo);
  return demo;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof Stopped) process.exit(0);
    if (isConfigError(err)) {
      process.stderr.write(`start: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`start: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
