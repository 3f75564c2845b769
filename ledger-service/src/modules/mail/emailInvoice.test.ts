/**
 * POST /arap/invoice/customer/{id}/email over HTTP against real Postgres and a real SMTP
 * server on loopback: 202 with the message id, what arrives (recipient, subject, text, the
 * invoice PDF), the invoice's `emails`, and the refusals.
 */
import t from 'tap';
import { CHART } from '../../../test/arapHelpers.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';

async function setup(t: { teardown(fn: () => unknown): void }) {
  const { smtp, api, customerId: mailCustomerId } = await startMailScenario(t);
  const silent = await api('POST', '/arap/customer', { name: 'No Mail AG' });
  if (silent.status !== 201) throw new Error(JSON.stringify(silent.body));
  const createInvoice = async (extra: Record<string, unknown> = {}, customerId = mailCustomerId) => {
    const res = await api('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customerId,
      invDate: '2024-03-15',
      terms: 30,
      pending: '0',
      items: [
        {
          description: 'Bookkeeping March',
          quantity: 2,
          unit: 'h',
          price: 150,
          account: CHART.customer.line,
          taxAccount: CHART.customer.tax,
        },
      ],
      ...extra,
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  /** waits (polling the invoice) until its message `id` is no longer queued or being sent */
  const settled = async (invoiceId: number, messageId: number) => {
    for (;;) {
      const read = await api('GET', `/arap/invoice/customer/${invoiceId}`);
      const m = (read.body.emails as { id: number; status: string }[]).find((e) => e.id === messageId);
      if (m && m.status !== 'queued' && m.status !== 'sending') return read.body;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { smtp, api, createInvoice, silentCustomerId: silent.body.id as number, settled };
}

t.test('a posted invoice is e-mailed to the customer with its PDF; the invoice lists the message', async (t) => {
  const s = await setup(t);
  const id = await s.createInvoice();
  const res = await s.api('POST', `/arap/invoice/customer/${id}/email`, {});
  t.equal(res.status, 202, JSON.stringify(res.body));
  t.equal(res.body.status, 'queued');
  t.match(res.body.message_id, /^<.+@.+>$/);

  const read = await s.settled(id, res.body.id);
  t.match(read.emails, [{ id: res.body.id, to: 'billing@beispiel.test', status: 'sent' }]);
  t.equal(s.smtp.received.length, 1);
  const mail = s.smtp.received[0]!;
  t.same(mail.envelopeTo, ['billing@beispiel.test']);
  t.equal(mail.parsed.messageId, res.body.message_id);
  t.match(mail.parsed.subject, new RegExp(`^Invoice ${read.invNumber} from `));
  t.match(
    mail.parsed.text,
    new RegExp(`invoice ${read.invNumber} of 15\\.03\\.2024 over CHF 324\\.30\\. It is due on 14\\.04\\.2024`),
  );
  t.equal(mail.parsed.attachments.length, 1);
  const pdf = mail.parsed.attachments[0]!;
  t.equal(pdf.mimeType, 'application/pdf');
  t.equal(pdf.filename, `${read.invNumber}.pdf`);
  t.equal(
    Buffer.from(pdf.content as ArrayBuffer)
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
});

t.test('to, cc, subject and message as given', async (t) => {
  const s = await setup(t);
  const id = await s.createInvoice();
  const res = await s.api('POST', `/arap/invoice/customer/${id}/email`, {
    to: ['a@example.test', 'b@example.test'],
    cc: 'boss@example.test',
    subject: 'Your invoice',
    message: 'Hello,\nhere it is.',
  });
  t.equal(res.status, 202, JSON.stringify(res.body));
  const read = await s.settled(id, res.body.id);
  t.match(read.emails, [{ to: 'a@example.test, b@example.test', status: 'sent' }]);
  const mail = s.smtp.received[0]!;
  t.same(mail.envelopeTo.sort(), ['a@example.test', 'b@example.test', 'boss@example.test']);
  t.equal(mail.parsed.subject, 'Your invoice');
  t.equal(mail.parsed.text?.trim(), 'Hello,\nhere it is.');
});

t.test(
  'refusals: a draft (409), no address (400 /to), an unknown invoice (404), a malformed address (400)',
  async (t) => {
    const s = await setup(t);
    const draft = await s.createInvoice({ pending: undefined });
    const d = await s.api('POST', `/arap/invoice/customer/${draft}/email`, {});
    t.equal(d.status, 409);
    t.equal(d.body.error.code, 'conflict');

    const noMail = await s.createInvoice({}, s.silentCustomerId);
    const n = await s.api('POST', `/arap/invoice/customer/${noMail}/email`, {});
    t.equal(n.status, 400);
    t.equal(n.body.error.field, '/to');

    const missing = await s.api('POST', '/arap/invoice/customer/999999999/email', {});
    t.equal(missing.status, 404);

    const bad = await s.api('POST', `/arap/invoice/customer/${noMail}/email`, { to: 'not an address' });
    t.equal(bad.status, 400);
    t.equal(bad.body.error.code, 'invalid_request');
    t.equal(s.smtp.received.length, 0, 'nothing was sent');
  },
);
