/**
 * The e-mail outbox against real Postgres, a real pg-boss worker and a real SMTP server on
 * loopback: what arrives (recipients, subject, body, attachment), the transactional enqueue,
 * an SMTP outage (sent once the server is back, exactly once), the final failure, and the
 * .eml outbox without SMTP_URL. Each ledger here sends from its own queue, so other test
 * ledgers on the same database never take its jobs.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import PostalMime from 'postal-mime';
import { withTenant } from '../../db/knex.ts';
import { enqueueSend } from '../../db/queue.ts';
import type { Actor } from '../../domain/actor.ts';
import { createTestCompany, type TestCompany } from '../../../test/helpers.ts';
import { startMailTestLedger } from '../../../test/support/mailLedger.ts';
import { startSmtpTestServer } from '../../../test/support/smtpServer.ts';
import { queueMessage, type MessageRequest } from './outbox.ts';
import { insertMessage, loadOutgoingMessage } from './store.ts';
import { emlFileName, smtpTransport } from './transport.ts';

type MailLedger = Awaited<ReturnType<typeof startMailTestLedger>>;

function actorOf(c: TestCompany): Actor {
  return {
    userId: c.userId,
    role: c.role,
    approvalLimit: null,
    via: { kind: 'api_key', id: c.apiKeyId, label: 'test key' },
  };
}

function request(overrides: Partial<MessageRequest> = {}): MessageRequest {
  return {
    transactionId: null,
    kind: 'other',
    from: 'Test Company <billing@company.test>',
    to: ['customer@example.test'],
    cc: ['accounts@example.test'],
    subject: 'Invoice RE-1',
    text: 'Dear customer,\nplease find the invoice attached.',
    attachments: [{ filename: 'RE-1.pdf', mediaType: 'application/pdf', data: Buffer.from('%PDF-1.7 test bytes') }],
    ...overrides,
  };
}

async function queue(ledger: MailLedger, c: TestCompany, req = request()) {
  return withTenant(ledger.db, c.company.id, (tx) =>
    queueMessage({ tx, company: c.company, actor: actorOf(c) }, ledger.config.mailQueue, req),
  );
}

async function messageRow(ledger: MailLedger, c: TestCompany, id: number) {
  return withTenant(
    ledger.db,
    c.company.id,
    async (tx) => (await tx('messages').where({ id }).first()) as Record<string, any>,
  );
}

/** Waits (polling the database) until the message's row satisfies `done`. */
async function waitFor(ledger: MailLedger, c: TestCompany, id: number, done: (row: Record<string, any>) => boolean) {
  for (;;) {
    const row = await messageRow(ledger, c, id);
    if (done(row)) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test('a queued message arrives at the SMTP server with recipients, subject, body and attachment', async (t) => {
  const smtp = await startSmtpTestServer();
  t.teardown(() => smtp.stop());
  const ledger = await startMailTestLedger(t, { smtpUrl: smtp.url });
  const c = await createTestCompany(ledger);
  const queued = await queue(ledger, c);
  t.equal((await messageRow(ledger, c, queued.id)).status, 'queued');

  const row = await waitFor(ledger, c, queued.id, (r) => r.status === 'sent');
  t.equal(row.attempts, 1);
  t.ok(row.sent_at);
  t.equal(smtp.received.length, 1);
  const mail = smtp.received[0]!;
  t.same(mail.envelopeTo.sort(), ['accounts@example.test', 'customer@example.test']);
  t.equal(mail.parsed.subject, 'Invoice RE-1');
  t.equal(mail.parsed.messageId, queued.messageId);
  t.equal(mail.parsed.from?.address, 'billing@company.test');
  t.same(
    mail.parsed.to?.map((a) => a.address),
    ['customer@example.test'],
  );
  t.same(
    mail.parsed.cc?.map((a) => a.address),
    ['accounts@example.test'],
  );
  t.match(mail.parsed.text, /please find the invoice attached/);
  t.equal(mail.parsed.attachments.length, 1);
  const attachment = mail.parsed.attachments[0]!;
  t.equal(attachment.filename, 'RE-1.pdf');
  t.equal(attachment.mimeType, 'application/pdf');
  t.equal(Buffer.from(attachment.content as ArrayBuffer).toString(), '%PDF-1.7 test bytes');

  const audit = await withTenant(ledger.db, c.company.id, (tx) =>
    tx('audit_log')
      .where({ entity: 'message', entity_id: String(queued.id) })
      .first(),
  );
  t.equal(audit?.action, 'queue');
});

t.test('a rolled-back transaction leaves neither message nor job', async (t) => {
  const ledger = await startMailTestLedger(t, { smtpUrl: 'smtp://127.0.0.1:9' });
  const c = await createTestCompany(ledger);
  let queuedId = 0;
  await t.rejects(
    withTenant(ledger.db, c.company.id, async (tx) => {
      queuedId = (await queueMessage({ tx, company: c.company, actor: actorOf(c) }, ledger.config.mailQueue, request()))
        .id;
      throw new Error('the request fails after queueing');
    }),
    /the request fails/,
  );
  t.ok(queuedId > 0);
  t.equal(await messageRow(ledger, c, queuedId), undefined);
  const jobs = await ledger.db.raw(`select count(*)::int as n from pgboss.job where name = ?`, [
    ledger.config.mailQueue,
  ]);
  t.equal(jobs.rows[0].n, 0);
});

t.test('SMTP down while a message is queued: sent once the server is back, exactly once', async (t) => {
  const smtp = await startSmtpTestServer();
  t.teardown(() => smtp.stop());
  await smtp.stop();
  const ledger = await startMailTestLedger(t, { smtpUrl: smtp.url });
  const c = await createTestCompany(ledger);
  const queued = await queue(ledger, c, request({ subject: 'Outage test' }));

  const failed = await waitFor(ledger, c, queued.id, (r) => r.attempts >= 1);
  t.equal(failed.status, 'queued', 'still queued after a failed attempt');
  t.match(failed.last_error, /ECONNREFUSED|connect/i);

  await smtp.start();
  const sent = await waitFor(ledger, c, queued.id, (r) => r.status === 'sent');
  t.equal(sent.last_error, null);
  // the job is done: no further attempt can follow
  for (;;) {
    const job = await ledger.db.raw(`select state from pgboss.job where name = ?`, [ledger.config.mailQueue]);
    if (job.rows[0]?.state === 'completed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(smtp.received.filter((m) => m.parsed.subject === 'Outage test').length, 1, 'received exactly once');
});

t.test('after the last retry the message is failed with the error', async (t) => {
  const smtp = await startSmtpTestServer();
  await smtp.stop();
  const ledger = await startMailTestLedger(
    t,
    { smtpUrl: smtp.url },
    { retry: { retryLimit: 1, retryDelaySeconds: 1 }, pollingIntervalSeconds: 0.5 },
  );
  const c = await createTestCompany(ledger);
  const queued = await queue(ledger, c);
  const row = await waitFor(ledger, c, queued.id, (r) => r.status !== 'queued' && r.status !== 'sending');
  t.equal(row.status, 'failed');
  t.equal(row.attempts, 2, 'the first attempt and one retry');
  t.ok(row.last_error);
  t.equal(row.sent_at, null);
});

t.test('without SMTP_URL the message is written as an .eml file under <dataDir>/outbox/', async (t) => {
  const ledger = await startMailTestLedger(t, { smtpUrl: undefined });
  const c = await createTestCompany(ledger);
  const queued = await queue(ledger, c, request({ subject: 'Written to the outbox' }));
  await waitFor(ledger, c, queued.id, (r) => r.status === 'sent');
  const raw = await readFile(join(ledger.config.dataDir, 'outbox', emlFileName(queued.id)));
  const parsed = await PostalMime.parse(raw);
  t.equal(parsed.subject, 'Written to the outbox');
  t.equal(parsed.messageId, queued.messageId);
  t.same(
    parsed.to?.map((a) => a.address),
    ['customer@example.test'],
  );
  t.equal(parsed.attachments[0]?.filename, 'RE-1.pdf');
});

t.test('the message is recorded as sending before the SMTP server gets it, and sent after', async (t) => {
  const seen: string[] = [];
  let ledger: MailLedger | undefined;
  const smtp = await startSmtpTestServer({
    async beforeAccept(mail) {
      // the server has the message and has not answered: what has the outbox recorded?
      const rows = await ledger!.db.raw('select status from messages where message_id = ?', [
        mail.parsed.messageId ?? '',
      ]);
      seen.push(rows.rows[0]?.status);
    },
  });
  t.teardown(() => smtp.stop());
  ledger = await startMailTestLedger(t, { smtpUrl: smtp.url });
  const c = await createTestCompany(ledger);
  const queued = await queue(ledger, c, request({ subject: 'Recorded first' }));
  const row = await waitFor(ledger, c, queued.id, (r) => r.status === 'sent');
  t.same(seen, ['sending'], 'sending was committed before the hand-over');
  t.equal(row.attempts, 1);
  t.ok(row.sending_at, 'when the sending began');
});

/**
 * What a crash between the hand-over and its record leaves: the server has the message, the
 * row says `sending`, and pg-boss gives the job out again (after its expiry). The job is put
 * back here directly rather than waiting out the expiry.
 */
async function crashedMidSend(ledger: MailLedger, c: TestCompany, subject: string, firstSend: (id: number) => unknown) {
  const queued = await withTenant(ledger.db, c.company.id, async (tx) => {
    const messageId = `<crash-${Math.random().toString(36).slice(2)}@company.test>`;
    const id = await insertMessage(tx, c.company.id, { ...request({ subject }), messageId });
    await tx('messages').where({ id }).update({ status: 'sending', sending_at: tx.fn.now() });
    return { id, messageId };
  });
  await firstSend(queued.id);
  await withTenant(ledger.db, c.company.id, (tx) =>
    enqueueSend(tx, ledger.config.mailQueue, { companyId: c.company.id, messageId: queued.id }),
  );
  return queued;
}

t.test('a message found sending after a crash is sent again with the same Message-ID, once', async (t) => {
  const smtp = await startSmtpTestServer();
  t.teardown(() => smtp.stop());
  const ledger = await startMailTestLedger(t, { smtpUrl: smtp.url });
  const c = await createTestCompany(ledger);
  const first = smtpTransport(smtp.url);
  t.teardown(() => first.close());
  const queued = await crashedMidSend(ledger, c, 'Crashed mid-send', async (id) => {
    const message = await withTenant(ledger.db, c.company.id, (tx) => loadOutgoingMessage(tx, c.company.id, id));
    await first.deliver({ ...message!, attachments: message!.attachments.flatMap((a) => ('data' in a ? [a] : [])) });
  });
  const row = await waitFor(ledger, c, queued.id, (r) => r.status === 'sent');
  t.equal(row.attempts, 2, 'the cut-off attempt and the one after it');
  const copies = smtp.received.filter((m) => m.parsed.subject === 'Crashed mid-send');
  t.equal(copies.length, 2, 'sent once more, not lost');
  t.same(
    copies.map((m) => m.parsed.messageId),
    [queued.messageId, queued.messageId],
    'with the same Message-ID: the receiver sees one message',
  );
});

t.test('the .eml outbox does not write a message again whose file a crashed attempt wrote', async (t) => {
  const ledger = await startMailTestLedger(t, { smtpUrl: undefined });
  const c = await createTestCompany(ledger);
  const dir = join(ledger.config.dataDir, 'outbox');
  const queued = await crashedMidSend(ledger, c, 'Written before the crash', async (id) => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, emlFileName(id)), 'the file the cut-off attempt wrote');
  });
  const row = await waitFor(ledger, c, queued.id, (r) => r.status === 'sent');
  t.equal(row.status, 'sent');
  t.equal(await readFile(join(dir, emlFileName(queued.id)), 'utf8'), 'the file the cut-off attempt wrote');
});

t.test('one Message-ID is one message: the outbox refuses a second row with it', async (t) => {
  const ledger = await startMailTestLedger(t, { smtpUrl: 'smtp://127.0.0.1:9' });
  const c = await createTestCompany(ledger);
  const messageId = '<once@company.test>';
  await t.rejects(
    withTenant(ledger.db, c.company.id, async (tx) => {
      await insertMessage(tx, c.company.id, { ...request(), messageId });
      await insertMessage(tx, c.company.id, { ...request(), messageId });
    }),
    /messages_company_message_id_unique/,
  );
});
