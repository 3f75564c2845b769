import t from 'tap';
import { fixture, validateXsd } from '../../../test/fixtures/bank/support.ts';
import { bankSetup, COMPANY_IBAN, type BankSetup } from '../../../test/fixtures/bank/setup.ts';

/** A camt.053.001.08 end-of-day statement of the company's CHF account with the given entries. */
function statement(opening: string, closing: string, entries: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT-WORKED</MsgId><CreDtTm>2024-04-05T20:00:00+02:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-2024-04-05</Id>
      <Acct><Id><IBAN>${COMPANY_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${opening}</Amt><CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2024-04-05</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${closing}</Amt><CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2024-04-05</Dt></Dt></Bal>
      ${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

/** One entry of a statement: the camt.054's first entry, as the end-of-day statement repeats it. */
function entryOf(xml: string, n: number): string {
  const at = xml.split('<Ntry>')[n]!;
  return `<Ntry>${at.slice(0, at.indexOf('</Ntry>'))}</Ntry>`;
}

async function trialBalanceOf(s: BankSetup, accno: string): Promise<number | undefined> {
  const tb = await s.api('GET', '/reports/trial_balance?from=2024-01-01&to=2024-12-31');
  return (tb.body.accounts as { accno: string; closing: number }[]).find((a) => a.accno === accno)?.closing;
}

t.test(
  'worked example: a QR-reference credit in a camt.054 pays the invoice; the bank account balance equals the ' +
    'closing balance',
  async (t) => {
    const s = await bankSetup(t);
    const invoice = await s.postInvoice(100); // 100.00 + 8.1 % VAT = 108.10
    t.equal(invoice.grossAmount, 108.1);
    t.match(invoice.qr_reference, /^\d{27}$/, 'posted invoices get a QR reference (the company has a QR-IBAN)');

    // the bank's credit notification names the QR-IBAN and carries the invoice's reference
    const notification = fixture('camt.054.001.08.xml').replace('000000000000000000000000011', invoice.qr_reference);
    const imported = await s.send(notification);
    t.equal(imported.status, 200, JSON.stringify(imported.body));
    t.match(
      imported.body,
      { imported: 3, duplicates: 0, matched: 1 },
      'the one credit with its reference and amount is matched',
    );

    const paid = await s.api('GET', `/arap/invoice/customer/${invoice.id}`);
    t.equal(paid.body.payment_status, 'paid', 'the invoice is paid');
    t.equal(paid.body.open, 0);
    const [tx] = (await s.api('GET', '/bank/transactions?status=matched')).body;
    t.match(tx, {
      amount: 108.1,
      reference: invoice.qr_reference,
      status: 'matched',
      document: { id: invoice.id, vc: 'customer', number: invoice.invNumber },
    });
    const payments = await s.api('GET', `/arap/payments/customer?document_id=${invoice.id}`);
    t.same(
      payments.body.map((p: { id: number; amount: number; account: string; date: string }) => [
        p.id,
        p.amount,
        p.account,
        p.date,
      ]),
      [[tx.payment_id, 108.1, '1020', '2024-04-05']],
      "booked as the invoice's payment on the bank account's chart account, dated the booking date",
    );
    t.match(
      (await s.api('GET', '/bank/transactions?status=unmatched')).body.map((b: { amount: number }) => b.amount),
      [200, 50],
      'the credits of unknown invoices stay unmatched',
    );

    // the end-of-day statement repeats the notified entries: nothing new, and it balances with the books
    const endOfDay = statement('0.00', '358.10', [1, 2].map((n) => entryOf(notification, n)).join('\n'));
    const valid = await validateXsd(endOfDay, 'camt.053.001.08.xsd');
    t.ok(valid.valid, valid.errors.join('; '));
    const eod = await s.send(endOfDay);
    t.equal(eod.status, 200, JSON.stringify(eod.body));
    t.match(eod.body, {
      imported: 0,
      duplicates: 3,
      matched: 0,
      balanced: true,
      statements: [{ opening: 0, closing: 358.1, balanced: true }],
    });

    // the two unknown credits are booked by hand against the revenue account; then the books show the statement's
    // closing balance
    for (const b of (await s.api('GET', '/bank/transactions?status=unmatched')).body) {
      const booked = await s.api('POST', `/bank/transactions/${b.id}/book`, {
        account: '3400',
        description: 'Cash sale',
      });
      t.equal(booked.status, 200, JSON.stringify(booked.body));
    }
    t.equal(
      await trialBalanceOf(s, '1020'),
      358.1,
      'trial balance: bank account 1020 = closing balance of the statement',
    );
    t.equal(Number(await s.balance('1020')), 358.1, 'and so does the sum of its ledger lines');
  },
);

t.test('matching by invoice number in the text (CSV), and what stays unmatched', async (t) => {
  const s = await bankSetup(t);
  const a = await s.postInvoice(50); // 54.05
  const b = await s.postInvoice(200); // 216.20
  const draft = await s.api('POST', '/arap/invoice/customer', {
    customer_id: s.customerId,
    invDate: '2024-03-01',
    items: [{ description: 'x', quantity: 1, price: 10, account: '3400' }],
  });
  const draftNumber = (await s.api('GET', `/arap/invoice/customer/${draft.body.id}`)).body.invNumber;
  const csv = [
    'date,amount,currency,counterparty,iban,reference,description',
    `2024-04-02,54.05,CHF,Globex Corp,,,"Payment ${a.invNumber}, thanks"`,
    `2024-04-02,216.00,CHF,Globex Corp,,,"${b.invNumber}"`,
    `2024-04-02,10.00,CHF,Globex Corp,,,"${draftNumber}"`,
    `2024-04-03,54.05,CHF,Globex Corp,,,"${a.invNumber} again"`,
  ].join('\n');
  const r = await s.send(csv, 'text/csv', `?account=${s.bankAccountId}`);
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.match(
    r.body,
    { imported: 4, matched: 1 },
    'only the exact open amount of a posted invoice; a paid invoice is not paid twice',
  );
  const rows = (await s.api('GET', '/bank/transactions')).body;
  t.same(
    rows.map((x: { status: string }) => x.status),
    ['matched', 'unmatched', 'unmatched', 'unmatched'],
  );
  t.equal((await s.api('GET', `/arap/invoice/customer/${a.id}`)).body.payment_status, 'paid');
  t.equal(
    (await s.api('GET', `/arap/invoice/customer/${b.id}`)).body.payment_status,
    'open',
    'a partial amount is left for a person',
  );
});

t.test("booking by hand: a document's payment or an account; twice is a 409", async (t) => {
  const s = await bankSetup(t);
  const invoice = await s.postInvoice(200); // 216.20
  await s.send(
    [
      'date,amount,currency,counterparty,iban,reference,description',
      '2024-04-02,100.00,CHF,Globex Corp,,,first part',
      '2024-04-03,500.00,CHF,Globex Corp,,,too much',
      '2024-04-04,-30.00,CHF,Bank,,,fees',
      '2024-04-05,20.00,CHF,Interest,,,interest',
    ].join('\n'),
    'text/csv',
    `?account=${s.bankAccountId}`,
  );
  const [part, tooMuch, fees, interest] = (await s.api('GET', '/bank/transactions')).body as { id: number }[];
  const book = (id: number, body: unknown) => s.api('POST', `/bank/transactions/${id}/book`, body);

  const refused = async (
    id: number,
    body: unknown,
    status: number,
    field: string | undefined,
    message: RegExp,
    what: string,
  ) => {
    const r = await book(id, body);
    t.equal(r.status, status, `${what}: ${status} ${JSON.stringify(r.body)}`);
    t.equal(r.body.error?.field, field, what);
    t.match(r.body.error?.message, message, what);
  };
  await refused(part!.id, {}, 400, '/document_id', /either document_id .* or account/, 'neither');
  await refused(part!.id, { document_id: invoice.id, account: '3400' }, 400, '/account', /either/, 'both');
  await refused(
    fees!.id,
    { document_id: invoice.id },
    400,
    '/document_id',
    /No vendor document .* a debit pays a vendor document/,
    'a debit paying an invoice',
  );
  await refused(
    tooMuch!.id,
    { document_id: invoice.id },
    400,
    '/amount',
    /open|exceeds|more than/i,
    'more than the open amount',
  );
  await refused(interest!.id, { account: '1100' }, 400, '/account', /1100/, 'the receivable control account');
  await refused(interest!.id, { account: '9999' }, 400, '/account', /does not exist/, 'no such account');
  await refused(999999, { account: '6900' }, 404, undefined, /No bank transaction/, 'unknown');

  const paid = await book(part!.id, { document_id: invoice.id });
  t.equal(paid.status, 200, JSON.stringify(paid.body));
  t.match(paid.body, { status: 'booked', document: { id: invoice.id, vc: 'customer' }, account: null });
  t.equal((await s.api('GET', `/arap/invoice/customer/${invoice.id}`)).body.payment_status, 'partial');
  await refused(part!.id, { document_id: invoice.id }, 409, undefined, /already booked/, 'booked twice');
  await refused(part!.id, { account: '6900' }, 409, undefined, /already booked/, 'booked twice, another way');

  const fee = await book(fees!.id, { account: '6900' });
  t.equal(fee.status, 200, JSON.stringify(fee.body));
  t.match(fee.body, { status: 'booked', account: '6900', document: null });
  const journal = await s.api('GET', `/gl/transactions/${fee.body.journal_id}`);
  t.equal(journal.status, 200);
  t.match(journal.body, { transdate: '2024-04-04', status: 'posted', description: 'fees' });
  t.same(
    journal.body.lines.map((l: { account: string; debit?: number; credit?: number }) => [
      l.account,
      l.debit ?? 0,
      l.credit ?? 0,
    ]),
    [
      ['1020', 0, 30],
      ['6900', 30, 0],
    ],
    'money out: the bank account credited, the expense debited',
  );

  // two people booking the same transaction at once: one wins
  const both = await Promise.all([book(interest!.id, { account: '3400' }), book(interest!.id, { account: '3400' })]);
  t.same(both.map((r) => r.status).sort(), [200, 409]);
  t.equal(Number(await s.balance('1020')), 100 - 30 + 20, 'bank account: the booked transactions only');
  const audit = await s.api('GET', `/system/audit?entity=bank_transaction&entity_id=${fees!.id}`);
  t.match(audit.body, [{ action: 'book', details: { account: '6900', amount: -30 } }]);

  const clerk = await s.co.addMember('clerk');
  const { apiClient } = await import('../../../test/helpers.ts');
  const asClerk = apiClient(s.ledger.url, s.co.dataset, clerk.apiKey);
  const denied = await asClerk('POST', `/bank/transactions/${tooMuch!.id}/book`, { account: '3400' });
  t.equal(denied.status, 403);
  t.match(denied.body.error.message, 'bank.import');
});

t.test('a matched payment the payments module refuses stays unmatched (closed period)', async (t) => {
  const s = await bankSetup(t);
  const invoice = await s.postInvoice(100);
  t.equal((await s.api('POST', '/system/close_books', { date: '2024-04-30' })).status, 200);
  const r = await s.send(fixture('camt.054.001.08.xml').replace('000000000000000000000000011', invoice.qr_reference));
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.match(r.body, { imported: 3, matched: 0 }, 'the bank transactions are kept; the payment is left for a person');
  t.equal((await s.api('GET', `/arap/invoice/customer/${invoice.id}`)).body.payment_status, 'open');
  const [credit] = (await s.api('GET', `/bank/transactions?amount=108.1`)).body;
  const booked = await s.api('POST', `/bank/transactions/${credit.id}/book`, { document_id: invoice.id });
  t.equal(booked.status, 422, 'booking by hand in a closed period is refused too');
});

t.test(
  'one refused payment among several matched: the others are booked, and the refused one leaves its document open ' +
    'for a later transaction',
  async (t) => {
    const s = await bankSetup(t);
    const a = await s.postInvoice(100);
    const b = await s.postInvoice(200);
    t.equal((await s.api('POST', '/system/close_books', { date: '2024-04-30' })).status, 200);
    const csv =
      'date,amount,currency,counterparty,iban,reference,description\n' +
      `2024-04-10,${a.grossAmount},CHF,Globex Corp,,,${a.invNumber}\n` + // in the closed period: refused
      `2024-05-10,${b.grossAmount},CHF,Globex Corp,,,${b.invNumber}\n` +
      `2024-05-11,${a.grossAmount},CHF,Globex Corp,,,${a.invNumber} again\n`; // pays a, as the first did not
    const r = await s.send(csv, 'text/csv', `?account=${s.bankAccountId}`);
    t.equal(r.status, 200, JSON.stringify(r.body));
    t.match(r.body, { imported: 3, matched: 2 });
    const rows = (await s.api('GET', '/bank/transactions?sort=date')).body as {
      date: string;
      status: string;
      document: { id: number } | null;
      payment_id: number | null;
    }[];
    t.same(
      rows.map((x) => [x.date, x.status, x.document?.id ?? null]),
      [
        ['2024-04-10', 'unmatched', null],
        ['2024-05-10', 'matched', b.id],
        ['2024-05-11', 'matched', a.id],
      ],
    );
    t.ok(rows[1]!.payment_id && rows[2]!.payment_id, 'the booked ones name their payments');
    for (const doc of [a, b])
      t.equal((await s.api('GET', `/arap/invoice/customer/${doc.id}`)).body.payment_status, 'paid', doc.invNumber);
    const payments = await s.api('GET', `/arap/payments/customer?document_id=${a.id}`);
    t.same(
      payments.body.map((p: { date: string }) => p.date),
      ['2024-05-11'],
      'one payment of a, from the transaction after the closed period',
    );
  },
);
