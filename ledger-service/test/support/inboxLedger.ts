import { randomBytes } from 'node:crypto';
import type { LedgerConfig } from '../../src/config.ts';
import { startLedger } from '../../src/server.ts';
import { testConfig } from '../helpers.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * A ledger whose inbox worker takes jobs from its own queue (removed at teardown), polling
 * every 0.5 s (pg-boss's shortest interval): tests that share the database never take each
 * other's extraction jobs.
 */
export async function startInboxLedger(t: Teardown, overrides: Partial<LedgerConfig> = {}) {
  const config = testConfig({ inboxQueue: `inbox_test_${randomBytes(6).toString('hex')}`, ...overrides });
  const ledger = await startLedger({ config, mail: false, inbox: { pollingIntervalSeconds: 0.5 } });
  await ledger.workersReady;
  t.teardown(async () => {
    await ledger.close();
    await ledger.db.raw('delete from pgboss.job where name = ?', [config.inboxQueue!]).catch(() => {});
    await ledger.db.raw('select pgboss.delete_queue(?)', [config.inboxQueue!]).catch(() => {});
  });
  return { ...ledger, config };
}
