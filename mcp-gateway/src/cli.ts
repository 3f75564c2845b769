/** `gateway serve` (and `gateway migrate`): the gateway's command line. */
import { onStopSignals } from '@ledger/shared/lifecycle';
import { ConfigError, loadConfig } from './config.ts';
import { migrateLatest, openDb, storeOf } from './db/knex.ts';
import { startGateway } from './server.ts';

export async function main(argv: string[]): Promise<number> {
  const [command] = argv;
  try {
    const config = loadConfig();
    if (command === 'serve') {
      // installed before starting, so a signal during the start stops it cleanly afterwards
      const stop = onStopSignals({ log: (line) => console.error(`gateway: ${line}`) });
      const gateway = await startGateway({ config });
      void stop.whenRequested.then(() =>
        gateway.close().then(
          () => process.exit(0),
          () => process.exit(1),
        ),
      );
      return -1; // keep running
    }
    if (command === 'migrate') {
      const db = openDb(storeOf(config));
      const names = await migrateLatest(db);
      await db.destroy();
      console.log(names.length ? `applied: ${names.join(', ')}` : 'up to date');
      return 0;
    }
    console.error('usage: gateway serve | gateway migrate');
    return 2;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
