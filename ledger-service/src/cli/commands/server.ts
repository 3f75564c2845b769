import { migrateLatest } from '../../db/migrate.ts';
import { openDatabase, startLedger } from '../../server.ts';
import { onStopSignals } from '@ledger/shared/lifecycle';
import { holdPorts } from '@ledger/shared/ports';
import { publishEmbeddedUrl } from '../../db/embeddedLock.ts';
import { parse } from '../args.ts';
import type { CliContext } from '../context.ts';

/** ledger migrate */
export async function migrate(ctx: CliContext, args: string[]): Promise<void> {
  parse(args, {}, []);
  const database = await openDatabase(ctx.config);
  try {
    const applied = await migrateLatest(database.db);
    ctx.out.result({ applied }, applied.length ? `applied: ${applied.join(', ')}` : 'the schema is up to date');
  } finally {
    await database.close();
  }
}

/**
 * ledger serve: migrations, then the ledger until SIGTERM / SIGINT. The port is held before
 * the database is opened, so a taken port stops it (exit 2) before anything is written.
 */
export async function serve(ctx: CliContext, args: string[]): Promise<void> {
  parse(args, {}, []);
  const stop = onStopSignals({ log: (line) => process.stderr.write(`ledger: ${line}\n`) });
  try {
    const held = await holdPorts([{ variable: 'LEDGER_PORT', host: ctx.config.host, port: ctx.config.port }]);
    const config = { ...ctx.config, port: held.ports.LEDGER_PORT! };
    const database = await openDatabase(config).catch(async (err: unknown) => {
      await held.release();
      throw err;
    });
    let ledger: Awaited<ReturnType<typeof startLedger>>;
    try {
      await migrateLatest(database.db);
      // other `ledger` commands work through this process's embedded database from now on
      if (!config.databaseUrl) publishEmbeddedUrl(config.dataDir, database.url);
      await held.release();
      ledger = await startLedger({ config, database });
    } catch (err) {
      await held.release();
      await database.close();
      throw err;
    }
    ledger.log.info({ url: ledger.url, embedded: !config.databaseUrl }, 'ledger listening');
    ctx.out.result({ ledger_url: ledger.url }, `ledger listening on ${ledger.url}`);
    await stop.whenRequested;
    await ledger.close();
    await database.close();
  } finally {
    stop.dispose();
  }
}
