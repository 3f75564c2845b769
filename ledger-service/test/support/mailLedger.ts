/**
 * A test ledger whose mail worker sends from its own pg-boss queue (other test ledgers on the
 * same database never take its jobs) and retries after 1 s; the queue is removed at teardown.
 */
import { randomBytes } from 'node:crypto';
import type { LedgerConfig } from '../../src/config.ts';
import { startLedger } from '../../src/server.ts';
import type { MailWorkerOptions } from '../../src/modules/outbox/index.ts';
import { apiClient, createTestCompany, testConfig } from '../helpers.ts';
import { startSmtpTestServer } from './smtpServer.ts';
import { createDb } from '../../src/db/knex.ts';
import { dropQueue } from '../../src/db/queue.ts';

export const FAST_RETRY: MailWorkerOptions = {
  retry: { retryLimit: 5, retryDelaySeconds: 1 },
  pollingIntervalSeconds: 0.5,
};

export async function startMailTestLedger(
  t: { teardown(fn: () => unknown): void },
  overrides: Partial<LedgerConfig>,
  mail = FAST_RETRY,
) {
  const config = testConfig({ mailQueue: `mail_test_${randomBytes(6).toString('hex')}`, ...overrides });
  const ledger = await startLedger({ config, mail });
  t.teardown(async () => {
    // pg-boss keeps one partition table per queue: the test's goes with it — once the ledger and its mail
    // worker have stopped, so that dropping the partition does not deadlock with the worker completing a job
    await ledger.close();
    const db = createDb(config.databaseUrl!, { poolMax: 1 });
    try {
      await dropQueue(db, config.mailQueue);
    } finally {
      await db.destroy();
    }
  });
  return { ...ledger, config };
}

/**
 * A loopback SMTP server, a mail test ledger sending to it, a company set up for Swiss
 * invoices and a customer with an e-mail address and a complete address.
 */
export async function startMailScenario(t: { teardown(fn: () => unknown): void }) {
  const smtp = await startSmtpTestServer();
  t.teardown(() => smtp.stop());
  const ledger = await startMailTestLedger(t, { smtpUrl: smtp.url });
  const co = await createTestCompany(ledger, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', {
    name: 'Beispiel GmbH',
    email: 'billing@beispiel.test',
    address1: 'Marktgasse',
    street: '28',
    zipcode: '3011',
    city: 'Bern',
    country: 'CH',
    // the mail tests read the English texts (the company's own language is German)
    language: 'en',
  });
  if (customer.status !== 201) throw new Error(JSON.stringify(customer.body));
  return { smtp, ledger, co, api, customerId: customer.body.id as number };
}
