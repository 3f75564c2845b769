/**
 * Dunning runs (docs/invoices.md "Dunning runs") over HTTP on real Postgres and a real SMTP
 * server: the dry run lists without writing, a run sends each invoice its next level once (a
 * second run on the same day sends nothing), the reminder PDF in the customer's language with a
 * QR payment part for the open amount plus fee, the fee booked, the runs listed; and the
 * refusals (no dunning levels, levels out of order).
 */
import t from 'tap';
import { CHART } from '../../../test/arapHelpers.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';
import { decodeQrCodes, parseSwissQr, pdfPagePng, pdfText } from '../../../test/support/pdf.ts';

const LEVELS = [
  {
    days: 5,
    fee: 0,
    text: { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Vi preghiamo di pagare.', en: 'Please pay.' },
  },
  { days: 30, fee: 20, text: { de: 'Letzte Frist.', fr: 'Dernier délai.', it: 'Ultimo termine.', en: 'Last term.' } },
];

async function setup(t: { teardown(fn: () => unknown): void }) {
  const { smtp, api, customerId } = await startMailScenario(t);
  const invoice = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customerId,
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    items: [{ description: 'Beratung', quantity: 2, price: 150, account: CHART.customer.line, taxAccount: '2200' }],
  });
  if (invoice.status !== 201) throw new Error(JSON.stringify(invoice.body));
  const arrived = async (count: number) => {
    while (smtp.received.length < count) await new Promise((r) => setTimeout(r, 100));
    return smtp.received;
  };
  return { api, smtp, arrived, invoiceId: invoice.body.id as number };
}

t.test('without dunning levels a run is refused; levels must rise', async (t) => {
  const s = await setup(t);
  const refused = await s.api('POST', '/arap/dunning/run', { date: '2024-05-01', dry_run: true });
  t.equal(refused.status, 409);
  const backwards = await s.api('POST', '/system/company', {
    dunning: { levels: [LEVELS[1], LEVELS[0]] },
  });
  t.equal(backwards.status, 400, JSON.stringify(backwards.body));
  t.equal(backwards.body.error.field, '/dunning/levels/1/days');
  t.same((await s.api('GET', '/system/company')).body.dunning, { levels: [] }, 'nothing written');
});

t.test('dry run, run, the same day again, the next level with its fee and QR payment part', async (t) => {
  const s = await setup(t);
  const set = await s.api('POST', '/system/company', {
    dunning: { levels: LEVELS },
    reminder_fee_account: CHART.customer.line2,
  });
  t.equal(set.status, 200, JSON.stringify(set.body));
  t.same(set.body.dunning, { levels: LEVELS });

  t.same((await s.api('POST', '/arap/dunning/run', { date: '2024-04-16', dry_run: true })).body.items, [], 'not yet');
  const dry = await s.api('POST', '/arap/dunning/run', { date: '2024-04-20', dry_run: true });
  t.equal(dry.status, 200, JSON.stringify(dry.body));
  t.match(dry.body.items, [{ invoice_id: s.invoiceId, level: 1, fee: 0, open: 324.3, days_overdue: 6 }]);
  t.equal(dry.body.id, undefined);
  t.same((await s.api('GET', '/arap/dunning/runs')).body, [], 'a dry run records nothing');

  const first = await s.api('POST', '/arap/dunning/run', { date: '2024-04-20' });
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.ok(first.body.id);
  t.match(first.body.items, [{ invoice_id: s.invoiceId, level: 1, fee_transaction_id: null }]);
  t.ok(first.body.items[0].message_id, 'e-mailed');
  const again = await s.api('POST', '/arap/dunning/run', { date: '2024-04-20' });
  t.same(again.body.items, [], 'the same day sends nothing twice');
  t.equal(again.body.id, undefined);

  const second = await s.api('POST', '/arap/dunning/run', { date: '2024-05-20' });
  t.equal(second.status, 200, JSON.stringify(second.body));
  t.match(second.body.items, [{ invoice_id: s.invoiceId, level: 2, fee: 20 }]);
  const feeId = second.body.items[0].fee_transaction_id as number;
  const fee = (await s.api('GET', `/arap/transaction/customer/${feeId}`)).body;
  t.match(fee, { status: 'posted', grossAmount: 20, invDate: '2024-05-20' });
  t.same(
    (await s.api('POST', '/arap/dunning/run', { date: '2024-08-01', dry_run: true })).body.items,
    [],
    'no level 3',
  );

  const mails = await s.arrived(2);
  const mail = mails[1]!;
  t.match(mail.parsed.subject, /^Second payment reminder from /);
  const pdf = Buffer.from(mail.parsed.attachments[0]!.content as ArrayBuffer);
  const text = await pdfText(pdf);
  t.match(text, 'Second payment reminder');
  t.match(text, 'Payment part');
  t.match(text, 'Reminder fee');
  t.match(text, 'Last term.');
  const qr = parseSwissQr((await decodeQrCodes(await pdfPagePng(pdf)))[0]!);
  t.equal(qr.amount, '344.30', 'open amount plus fee');
  const invoice = (await s.api('GET', `/arap/invoice/customer/${s.invoiceId}`)).body;
  t.equal(qr.reference, invoice.qr_reference);
  t.equal(invoice.reminder_level, 2, "the invoice counts the run's reminders");

  const runs = await s.api('GET', '/arap/dunning/runs');
  t.same(
    runs.body.map((r: { date: string; count: number }) => [r.date, r.count]),
    [
      ['2024-05-20', 1],
      ['2024-04-20', 1],
    ],
  );
  const run = await s.api('GET', `/arap/dunning/runs/${second.body.id}`);
  t.match(run.body, {
    id: second.body.id,
    date: '2024-05-20',
    items: [{ level: 2, fee: 20, fee_transaction_id: feeId }],
  });
});
