import { migrateLatest } from '../../db/migrate.ts';
import { openDatabase, startLedger } from '../../server.ts';
import { onShutdownSignal } from '../../lifecycle.ts';
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

/** ledger serve: migrations, then the ledger until SIGTERM / SIGINT */
export async function serve(ctx: CliContext, args: string[]): Promise<void> {
  parse(args, {}, []);
  const database = await openDatabase(ctx.config);
  await migrateLatest(database.db);
  // other `ledger` commands work through this process's embedded database from now on
  if (!ctx.config.databaseUrl) publishEmbeddedUrl(ctx.config.dataDir, database.url);
  const ledger = await startLedger({ config: ctx.config, database });
  ledger.log.info({ url: ledger.url, embedded: !ctx.config.databaseUrl }, 'ledger listening');
  ctx.out.result({ ledger_url: ledger.url }, `ledger listening on ${ledger.url}`);
  await new Promise<void>((resolve) => {
    onShutdownSignal(async () => {
      await ledger.close();
      await database.close();
      resolve();
    }, (msg) => ledger.log.info(msg));
  });
}
