/**
 * POST /arap/invoice/customer/{id}/reminder over HTTP against real Postgres and a real SMTP
 * server on loopback: levels 1–3 and the 4th refused, only posted, overdue, unpaid invoices,
 * the fee booked as its own posted customer transaction on the reminder-fee account, what
 * arrives, and the invoice's `reminder_level`.
 */
import t from 'tap';
import { CHART } from '../../../test/arapHelpers.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';
import { today } from '../../domain/period.ts';

const FEE_ACCOUNT = CHART.customer.line2;

async function setup(t: { teardown(fn: () => unknown): void }) {
  const { smtp, api, customerId } = await startMailScenario(t);
  /** a posted invoice of 2024-03-15 due 2024-04-14 over 324.30 CHF (overdue) unless `extra` says otherwise */
  const createInvoice = async (extra: Record<string, unknown> = {}, price = 150) => {
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
          price,
          account: CHART.customer.line,
          taxAccount: CHART.customer.tax,
        },
      ],
      ...extra,
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  const setFeeAccount = async (account: string | null) => {
    const res = await api('POST', '/system/company', { reminder_fee_account: account });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  };
  /** waits until `count` mails arrived */
  const arrived = async (count: number) => {
    while (smtp.received.length < count) await new Promise((r) => setTimeout(r, 100));
    return smtp.received;
  };
  return { smtp, api, createInvoice, setFeeAccount, arrived };
}

t.test('levels 1, 2, 3 with rising texts; a 4th is refused; reminder_level counts them', async (t) => {
  const s = await setup(t);
  const id = await s.createInvoice();
  const invNumber = (await s.api('GET', `/arap/invoice/customer/${id}`)).body.invNumber as string;
  const subjects = ['Payment reminder', 'Second payment reminder', 'Final payment reminder'];
  const texts = [
    /perhaps it has escaped your attention/,
    /despite our first reminder/,
    /this is our final reminder.*debt collection/s,
  ];
  for (const level of [1, 2, 3]) {
    const res = await s.api('POST', `/arap/invoice/customer/${id}/reminder`, {});
    t.equal(res.status, 202, JSON.stringify(res.body));
    t.match(res.body, { status: 'queued', level, fee_transaction_id: null });
    t.match(res.body.message_id, /^<.+@.+>$/);
    const mail = (await s.arrived(level))[level - 1]!;
    t.same(mail.envelopeTo, ['billing@beispiel.test']);
    t.equal(mail.parsed.messageId, res.body.message_id);
    t.match(mail.parsed.subject, new RegExp(`^${subjects[level - 1]}: invoice ${invNumber} from `));
    t.match(mail.parsed.text, texts[level - 1]!);
    t.match(
      mail.parsed.text,
      new RegExp(
        `invoice ${invNumber} of 15\\.03\\.2024 over CHF 324\\.30 was due on 14\\.04\\.2024, ` +
          'and CHF 324\\.30 are still open',
      ),
    );
    t.match(mail.parsed.text, `Reminder level ${level}`);
    t.notMatch(mail.parsed.text, /reminder fee/i, 'no fee named without fee');
    t.equal(mail.parsed.attachments.length, 1);
    t.equal(mail.parsed.attachments[0]!.filename, `${invNumber}.pdf`);
    const read = await s.api('GET', `/arap/invoice/customer/${id}`);
    t.equal(read.body.reminder_level, level);
    t.equal(read.body.emails.length, level);
  }
  const fourth = await s.api('POST', `/arap/invoice/customer/${id}/reminder`, {});
  t.equal(fourth.status, 409);
  t.equal(fourth.body.error.code, 'conflict');
  t.match(fourth.body.error.message, /all 3 reminders/);
  t.equal(
    (await s.api('GET', `/arap/invoice/customer/${id}`)).body.reminder_level,
    3,
    'the refused 4th leaves the level',
  );
  const listed = await s.api('GET', `/arap/invoices/customer?limit=1000`);
  t.equal(listed.status, 200);
  t.equal(
    (listed.body as { id: number; reminder_level: number }[]).find((r) => r.id === id)?.reminder_level,
    3,
    'list rows too',
  );
  t.equal(s.smtp.received.length, 3, 'nothing sent for the 4th');
});

t.test('a custom message; no fee → no fee document', async (t) => {
  const s = await setup(t);
  const id = await s.createInvoice();
  const res = await s.api('POST', `/arap/invoice/customer/${id}/reminder`, { message: 'Please pay.' });
  t.equal(res.status, 202, JSON.stringify(res.body));
  t.equal(res.body.fee_transaction_id, null);
  const [mail] = await s.arrived(1);
  t.equal(mail!.parsed.text?.trim(), 'Please pay.');
  const after = await s.api('GET', '/arap/transactions/customer');
  t.same(after.body, [], 'no customer transaction was booked');
});

t.test(
  'the fee is booked as its own posted customer transaction on the reminder-fee account and named in the mail',
  async (t) => {
    const s = await setup(t);
    await s.setFeeAccount(FEE_ACCOUNT);
    const id = await s.createInvoice();
    const invoice = await s.api('GET', `/arap/invoice/customer/${id}`);
    const res = await s.api('POST', `/arap/invoice/customer/${id}/reminder`, { fee: 20.05 });
    t.equal(res.status, 202, JSON.stringify(res.body));
    t.equal(res.body.level, 1);
    const feeId = res.body.fee_transaction_id as number;
    t.type(feeId, 'number');

    const fee = await s.api('GET', `/arap/transaction/customer/${feeId}`);
    t.equal(fee.status, 200, JSON.stringify(fee.body));
    t.match(fee.body, {
      status: 'posted',
      customer_id: invoice.body.customer_id,
      currency: 'CHF',
      invDate: today(),
      grossAmount: 20.05,
    });
    t.match(fee.body.description, new RegExp(`Reminder fee, level 1, invoice ${invoice.body.invNumber}`));
    t.match(fee.body.lines, [{ account: FEE_ACCOUNT, amount: 20.05 }]);
    t.equal(fee.body.lines.length, 1);
    const postings = fee.body.postings as { account: string; amount: number }[];
    t.equal(
      postings.reduce((sum, p) => sum + Math.round(p.amount * 100), 0),
      0,
      'balanced',
    );
    t.match(
      postings.find((p) => p.account === FEE_ACCOUNT),
      { amount: -20.05 },
      'revenue on the fee account',
    );
    t.match(
      postings.find((p) => p.account === CHART.customer.control),
      { amount: 20.05 },
      'receivable',
    );
    t.match((await s.api('GET', '/arap/transactions/customer')).body, [{ id: feeId }], 'the one customer transaction');

    const [mail] = await s.arrived(1);
    t.match(
      mail!.parsed.text,
      new RegExp(`A reminder fee of CHF 20\\.05 is charged with document ${fee.body.invNumber}`),
    );
    t.equal((await s.api('GET', `/arap/invoice/customer/${id}`)).body.reminder_level, 1);

    // a custom message still names the fee
    const second = await s.api('POST', `/arap/invoice/customer/${id}/reminder`, { message: 'Second notice.', fee: 30 });
    t.equal(second.status, 202, JSON.stringify(second.body));
    const mails = await s.arrived(2);
    t.match(mails[1]!.parsed.text, /^Second notice\.\s+A reminder fee of CHF 30\.00/);
  },
);

t.test(
  'refusals: draft, not overdue, paid (409); fee without account, bad fee (400); unknown invoice (404)',
  async (t) => {
    const s = await setup(t);
    const refused = async (
      id: number,
      body: Record<string, unknown>,
      status: number,
      message: RegExp,
      field?: string,
    ) => {
      const res = await s.api('POST', `/arap/invoice/customer/${id}/reminder`, body);
      t.equal(res.status, status, JSON.stringify(res.body));
      t.match(res.body.error.message, message);
      if (field) t.equal(res.body.error.field, field);
      return res;
    };
    const draft = await s.createInvoice({ pending: undefined });
    t.equal((await refused(draft, {}, 409, /is draft; only posted/)).body.error.code, 'conflict');
    const current = await s.createInvoice({ invDate: today() });
    await refused(current, {}, 409, /is not overdue \(due on \d{4}-\d\d-\d\d\)/);
    const paid = await s.createInvoice({}, 0);
    await refused(paid, {}, 409, /is paid/);

    const overdue = await s.createInvoice();
    await s.setFeeAccount(null);
    await refused(overdue, { fee: 10 }, 400, /set reminder_fee_account/, '/fee');
    await s.setFeeAccount(FEE_ACCOUNT);
    await refused(overdue, { fee: 10.005 }, 400, /more decimals than CHF allows/, '/fee');
    const zero = await s.api('POST', `/arap/invoice/customer/${overdue}/reminder`, { fee: 0 });
    t.equal(zero.status, 400);
    t.equal(zero.body.error.code, 'invalid_request');
    const extra = await s.api('POST', `/arap/invoice/customer/${overdue}/reminder`, { to: 'x@example.test' });
    t.equal(extra.status, 400);
    t.equal((await s.api('POST', '/arap/invoice/customer/999999999/reminder', {})).status, 404);

    const read = await s.api('GET', `/arap/invoice/customer/${overdue}`);
    t.equal(read.body.reminder_level, 0, 'refused reminders leave no trace');
    t.same(read.body.emails, []);
    t.equal((await s.api('GET', '/arap/transactions/customer')).body.length, 0, 'no fee document was booked');
    t.equal(s.smtp.received.length, 0, 'nothing was sent');
  },
);
