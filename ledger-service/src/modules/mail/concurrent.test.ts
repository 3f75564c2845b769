/**
 * E-mail and reminders under concurrent use: many requests at once on one invoice and across
 * the invoices of one company each get their answer (202, or the documented 409 of a fourth
 * reminder), never a 500; every queued message is sent.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { CHART } from '../../../test/arapHelpers.ts';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';
import { startLedger } from '../../server.ts';
import { dropQueue, QUEUE_NAMES, withQueueDdl } from '../../db/queue.ts';
import { createQueueUnlessPresent, MAIL_QUEUE_OPTIONS } from '../../db/migrations/025_mail_queue.ts';

t.test('concurrent e-mails and reminders on one invoice and across invoices never answer 500', async (t) => {
  const { api, customerId } = await startMailScenario(t);
  const fee = await api('POST', '/system/company', { reminder_fee_account: CHART.customer.line });
  t.equal(fee.status, 200, JSON.stringify(fee.body));
  const invoice = async () => {
    const res = await api('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customerId,
      invNumber: undefined,
      invDate: '2024-03-15',
      terms: 30,
      pending: '0',
      items: [
        { description: 'Work', quantity: 1, price: 100, account: CHART.customer.line, taxAccount: CHART.customer.tax },
      ],
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  const ids = [await invoice(), await invoice(), await invoice()];
  const calls: Promise<{ status: number; body: Record<string, unknown>; what: string }>[] = [];
  for (let round = 0; round < 4; round++) {
    for (const id of ids) {
      calls.push(api('POST', `/arap/invoice/customer/${id}/email`, {}).then((r) => ({ ...r, what: `email ${id}` })));
      calls.push(
        api('POST', `/arap/invoice/customer/${id}/reminder`, round % 2 ? { fee: 5 } : {}).then((r) => ({
          ...r,
          what: `reminder ${id}`,
        })),
      );
    }
  }
  const answers = await Promise.all(calls);
  for (const a of answers) {
    t.not(a.status, 500, `${a.what}: ${JSON.stringify(a.body)}`);
    t.ok(a.status === 202 || (a.status === 409 && a.what.startsWith('reminder')), `${a.what}: ${a.status}`);
  }
  for (const id of ids) {
    const reminders = answers.filter((a) => a.what === `reminder ${id}` && a.status === 202);
    t.equal(reminders.length, 3, `invoice ${id}: three reminders, the fourth refused`);
  }
});

/** A ledger without its mail worker (not started yet, or another process sends), on queue `mailQueue`. */
async function ledgerWithoutMailWorker(t: { teardown(fn: () => unknown): void }, mailQueue: string) {
  const config = testConfig({ mailQueue });
  const ledger = await startLedger({ config, mail: false, inbox: false, webhooks: false });
  t.teardown(() => ledger.close());
  const co = await createTestCompany({ ...ledger, config }, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', { name: 'Beispiel GmbH', email: 'billing@beispiel.test' });
  const created = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customer.body.id,
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    items: [{ description: 'Work', quantity: 1, price: 100, account: CHART.customer.line }],
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return { ledger, api, invoiceId: created.body.id as number };
}

t.test('the mail queue exists from the migrations on, before any mail worker started', async (t) => {
  const queue = `mail_unmade_${randomBytes(6).toString('hex')}`;
  const { ledger, api, invoiceId } = await ledgerWithoutMailWorker(t, queue);
  const { db } = ledger;
  const { rows } = await db.raw('select name from pgboss.queue where name = ?', [QUEUE_NAMES.mail]);
  t.same(rows, [{ name: QUEUE_NAMES.mail }], 'the default mail queue is migrated');

  // what the migration does, on a queue of this test's own: e-mail and reminder are queued without a worker
  // under the queue DDL lock, as the ledger makes queues: a test dropping its queue meanwhile could deadlock with it
  await withQueueDdl(db, (tx) => createQueueUnlessPresent(tx, queue, MAIL_QUEUE_OPTIONS));
  await withQueueDdl(db, (tx) => createQueueUnlessPresent(tx, queue, MAIL_QUEUE_OPTIONS)); // one already there is kept
  t.teardown(async () => {
    await dropQueue(db, queue);
  });
  const sent = await api('POST', `/arap/invoice/customer/${invoiceId}/email`, {});
  t.equal(sent.status, 202, JSON.stringify(sent.body));
  const reminded = await api('POST', `/arap/invoice/customer/${invoiceId}/reminder`, {});
  t.equal(reminded.status, 202, JSON.stringify(reminded.body));
  const jobs = await db.raw('select count(*)::int as n from pgboss.job where name = ?', [queue]);
  t.equal(jobs.rows[0].n, 2, 'both send jobs are queued for the worker to come');
});

t.test('an e-mail asked for before a renamed mail queue exists is a 503 to retry, never a 500', async (t) => {
  const { api, invoiceId } = await ledgerWithoutMailWorker(t, `mail_unmade_${randomBytes(6).toString('hex')}`);
  const res = await api('POST', `/arap/invoice/customer/${invoiceId}/email`, {});
  t.equal(res.status, 503, JSON.stringify(res.body));
  t.equal(res.body.error.code, 'unavailable');
  t.match(res.body.error.message, /not ready yet.*retry/);
  t.ok(Number(res.headers.get('retry-after')) > 0, 'says when to retry');
  const read = await api('GET', `/arap/invoice/customer/${invoiceId}`);
  t.same(read.body.emails, [], 'nothing was written');
});

t.test('a ledger with its mail worker has its mail queue, under any name, before it answers', async (t) => {
  // the worker would make the queue too, but in the background after the port is open: an
  // e-mail asked for at once (a client waiting for the port) would find no queue
  const queue = `mail_started_${randomBytes(6).toString('hex')}`;
  const config = testConfig({ mailQueue: queue });
  const ledger = await startLedger({ config, inbox: false, webhooks: false });
  t.teardown(async () => {
    await ledger.close();
    await ledger.db.raw('delete from pgboss.job where name = ?', [queue]).catch(() => {});
  });
  const { rows } = await ledger.db.raw('select name, retry_limit from pgboss.queue where name = ?', [queue]);
  t.same(rows, [{ name: queue, retry_limit: MAIL_QUEUE_OPTIONS.retryLimit }], 'made by the start, with its options');
});
