import { randomBytes } from 'node:crypto';
import type { LedgerConfig } from '../../src/config.ts';
import { startLedger } from '../../src/server.ts';
import { testConfig } from '../helpers.ts';
import { dropQueue } from '../../src/db/queue.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * A ledger whose inbox worker takes jobs from its own queue (removed at teardown), polling
 * every 0.5 s (pg-boss's shortest interval): tests that share the database never take each
 * other's extraction jobs.
 */
export async function startInboxLedger(
  t: Teardown,
  overrides: Partial<LedgerConfig> = {},
  workers: { webhooks?: false } = {},
) {
  const config = testConfig({ inboxQueue: `inbox_test_${randomBytes(6).toString('hex')}`, ...overrides });
  const ledger = await startLedger({ config, mail: false, inbox: { pollingIntervalSeconds: 0.5 }, ...workers });
  await ledger.workersReady;
  t.teardown(async () => {
    // before the close, which ends the ledger's pool (the worker finds no jobs meanwhile)
    await dropQueue(ledger.db, config.inboxQueue!);
    await ledger.close();
  });
  return { ...ledger, config };
}
