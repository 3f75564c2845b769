/**
 * invoice.emailed commits with the e-mail it tells of, queued in the outbox in the same
 * transaction (a real SMTP server on loopback receives it): the event names the invoice's
 * number, the e-mail's entry and Message-ID and its recipients. Refused e-mails (a draft, no
 * address, a malformed address, an unknown invoice) leave no event, and when the event cannot
 * be written the e-mail is not queued either.
 */
import t from 'tap';
import { CHART } from '../../../test/arapHelpers.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';

interface Event {
  id: string;
  type: string;
  subject: string;
  data: { actor: { via: string; id: string | null }; resource: { type: string; id: number }; snapshot: object };
}

t.test('invoice.emailed commits with the queued e-mail; refused e-mails leave none', async (t) => {
  const { smtp, ledger, co, api, customerId } = await startMailScenario(t);
  const silent = await api('POST', '/arap/customer', { name: 'No Mail AG' });
  t.equal(silent.status, 201);
  const invoice = async (extra: Record<string, unknown> = {}, customer = customerId) => {
    const res = await api('POST', '/arap/invoice/customer', {
      customer_id: customer,
      invDate: '2024-03-15',
      pending: '0',
      items: [
        { description: 'Audit', quantity: 1, price: 400, account: CHART.customer.line, taxAccount: CHART.customer.tax },
      ],
      ...extra,
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return (await api('GET', `/arap/invoice/customer/${res.body.id}`)).body as { id: number; invNumber: string };
  };
  const emailed = async () => (await api('GET', '/events?limit=500&type=invoice.emailed')).body as Event[];
  const email = (id: number, body: Record<string, unknown> = {}) =>
    api('POST', `/arap/invoice/customer/${id}/email`, body);
  const emailsOf = async (id: number) =>
    (await api('GET', `/arap/invoice/customer/${id}`)).body.emails as { id: number; status: string }[];

  // refusals: nothing queued, no event
  const draft = await invoice({ pending: undefined });
  t.equal((await email(draft.id)).status, 409, 'a draft is refused');
  const noMail = await invoice({}, silent.body.id);
  const none = await email(noMail.id);
  t.equal(none.status, 400, 'no address is refused');
  t.equal(none.body.error.field, '/to');
  t.equal((await email(noMail.id, { to: 'not an address' })).status, 400, 'a malformed address is refused');
  t.equal((await email(999999999)).status, 404, 'an unknown invoice is refused');
  t.same(await emailed(), [], 'the refused e-mails leave no event');
  t.same(await emailsOf(noMail.id), [], 'and queue nothing');

  // when the event cannot be written, the e-mail is not queued either (one transaction)
  const posted = await invoice();
  const trigger = `refuse_emailed_${co.company.id}`;
  await ledger.db.raw(`create function ${trigger}() returns trigger language plpgsql as $$
    begin raise exception 'event refused by the test'; end $$`);
  await ledger.db.raw(`create trigger ${trigger} before insert on events for each row
    when (new.company_id = ${co.company.id} and new.type = 'invoice.emailed') execute function ${trigger}()`);
  const failed = await email(posted.id);
  await ledger.db.raw(`drop trigger ${trigger} on events; drop function ${trigger}()`);
  t.equal(failed.status, 500, 'the failed event write fails the call');
  t.same(await emailsOf(posted.id), [], 'no e-mail queued without its event');

  // the e-mail and its event
  const sent = await email(posted.id);
  t.equal(sent.status, 202, JSON.stringify(sent.body));
  const events = await emailed();
  t.equal(events.length, 1, 'one event, with the queued e-mail');
  t.match(events[0], {
    subject: `/arap/document/customer/${posted.id}`,
    data: {
      actor: { via: 'api_key', id: String(co.apiKeyId) },
      resource: { type: 'invoice', id: posted.id },
    },
  });
  t.same(
    events[0]!.data.snapshot,
    {
      number: posted.invNumber,
      email_id: sent.body.id,
      message_id: sent.body.message_id,
      to: ['billing@beispiel.test'],
    },
    "the invoice's number, the e-mail's entry and Message-ID, its recipients",
  );
  t.same(
    (await emailsOf(posted.id)).map((m) => m.id),
    [sent.body.id],
    "email_id is the entry in the invoice's e-mails",
  );
  // the outbox sends it: the one e-mail that arrives is this one (the failed call queued none)
  // (queued, then sending while it is handed to the SMTP server: modules/outbox/worker.ts)
  const unsent = new Set(['queued', 'sending']);
  while (unsent.has((await emailsOf(posted.id))[0]!.status)) await new Promise((r) => setTimeout(r, 100));
  t.equal((await emailsOf(posted.id))[0]!.status, 'sent');
  t.same(
    smtp.received.map((m) => m.parsed.messageId),
    [sent.body.message_id],
    'the message that arrives carries the Message-ID of the event',
  );

  const to = await email(posted.id, { to: ['a@example.test', 'b@example.test'] });
  t.equal(to.status, 202);
  const [, second] = await emailed();
  t.same((second!.data.snapshot as { to: string[] }).to, ['a@example.test', 'b@example.test'], 'the "to" given');

  const ids = ((await api('GET', '/events?limit=500')).body as Event[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused and the failed e-mail',
  );
});
