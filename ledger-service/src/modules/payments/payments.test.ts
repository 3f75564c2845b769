import t from 'tap';
import { arapSetup, CHART, isZero, memberApi, SIDES, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';

/** A posted document of a side: 100 net + 8.1 % = 108.10 gross, in CHF unless `extra` says otherwise. */
async function posted(s: ArapSetup, vc: Vc, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await s.api('POST', `/arap/transaction/${vc}`, s.doc(vc, { pending: '0', ...extra }));
  if (r.status !== 201) throw new Error(`document setup failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

const pay = (s: ArapSetup, vc: Vc, body: Record<string, unknown>) =>
  s.api('POST', `/arap/payment/${vc}`, { account: '1020', date: '2024-03-20', ...body });

/** The base-currency balance one account holds from the lines of one document and its payments. */
const accountSum = (s: ArapSetup, documentId: number, accno: string) =>
  s.q(async (tx) =>
    String(
      (
        await tx('ledger_entries as e')
          .join('accounts as a', 'a.id', 'e.account_id')
          .where({ 'e.transaction_id': documentId, 'a.accno': accno })
          .sum({ s: 'e.amount' })
          .first()
      )?.s ?? '0',
    ),
  );

const paymentLines = (s: ArapSetup, paymentId: number) =>
  s.q(
    async (tx) =>
      (await tx('ledger_entries as e')
        .join('accounts as a', 'a.id', 'e.account_id')
        .where({ 'e.payment_id': paymentId })
        .orderBy('e.id')
        .select('a.accno', 'e.amount', 'e.fx_amount', 'e.kind', 'e.date')) as {
        accno: string;
        amount: string;
        fx_amount: string;
        kind: string;
        date: string;
      }[],
  );

t.test(
  'partial and final payment in the base currency (both sides): lines, paid, open, payment_status, list, audit',
  async (t) => {
    const s = await arapSetup(t);
    for (const vc of SIDES) {
      const id = await posted(s, vc);
      const control = CHART[vc].control;
      const sign = vc === 'customer' ? 1 : -1;

      const first = await pay(s, vc, { document_id: id, amount: 50, memo: 'first half', source: 'stmt-1' });
      t.equal(first.status, 201, JSON.stringify(first.body));
      const lines = await paymentLines(s, first.body.id);
      t.same(
        lines.map((l) => [l.accno, Number(l.amount), Number(l.fx_amount), l.kind, l.date]),
        [
          ['1020', 50 * sign, 50 * sign, 'payment', '2024-03-20'],
          [control, -50 * sign, -50 * sign, 'payment', '2024-03-20'],
        ],
        'bank against the control account, dated the payment date',
      );

      let doc = (await s.api('GET', `/arap/transaction/${vc}/${id}`)).body;
      t.match(doc, { grossAmount: 108.1, paid: 50, open: 58.1, payment_status: 'partial' });
      t.equal(doc.postings.length, 3, "the document's postings stay its own lines");

      const over = await pay(s, vc, { document_id: id, amount: 58.11 });
      t.equal(over.status, 400);
      t.match(over.body.error, { code: 'overpayment', field: '/amount' });
      t.match(over.body.error.message, /58\.11 CHF exceeds the open amount of 58\.10 CHF/);

      const last = await pay(s, vc, { document_id: id, amount: 58.1, date: '2024-03-25' });
      t.equal(last.status, 201);
      doc = (await s.api('GET', `/arap/transaction/${vc}/${id}`)).body;
      t.match(doc, { paid: 108.1, open: 0, payment_status: 'paid' });
      t.ok(isZero(await accountSum(s, id, control)), 'the control account is cleared for the document');
      t.equal(Number(await accountSum(s, id, '1020')), 108.1 * sign);
      t.ok(isZero(await s.documentSum(id)), 'document and payments balance');

      const again = await pay(s, vc, { document_id: id, amount: 0.01 });
      t.equal(again.body.error.code, 'overpayment', 'nothing open any more');

      const list = await s.api('GET', `/arap/payments/${vc}?document_id=${id}`);
      t.equal(list.status, 200);
      t.equal(list.headers.get('x-total-count'), '2');
      t.match(list.body[0], {
        id: first.body.id,
        vc,
        document_id: id,
        document_kind: 'transaction',
        [`${vc}_id`]: s.parties[vc].id,
        date: '2024-03-20',
        amount: 50,
        currency: 'CHF',
        exchangerate: 1,
        account: '1020',
        base_amount: 50,
        cleared_base_amount: 50,
        fx_gain_loss: 0,
        memo: 'first half',
        source: 'stmt-1',
        status: 'posted',
      });
      const ranged = await s.api('GET', `/arap/payments/${vc}?from=2024-03-21&to=2024-03-31`);
      t.same(
        ranged.body.map((p: { id: number }) => p.id),
        [last.body.id],
        'date range',
      );
      const sorted = await s.api('GET', `/arap/payments/${vc}?sort=-date&limit=1`);
      t.same(
        sorted.body.map((p: { id: number }) => p.id),
        [last.body.id],
        'descending, paged',
      );

      const rows = (await s.api('GET', `/arap/transactions/${vc}`)).body.filter((r: { id: number }) => r.id === id);
      t.match(rows[0], { paid: 108.1, open: 0, payment_status: 'paid' }, 'list rows carry them too');
      const docs = (await s.api('GET', `/arap/documents/${vc}`)).body.filter((r: { id: number }) => r.id === id);
      t.match(docs[0], { kind: 'transaction', open: 0, payment_status: 'paid' });

      const audit = await s.q((tx) =>
        tx('audit_log')
          .where({ entity: `${vc}_payment`, entity_id: String(first.body.id) })
          .select('action', 'details'),
      );
      t.match(audit, [
        { action: 'create', details: { document_id: id, amount: 50, currency: 'CHF', account: '1020' } },
      ]);
    }
    t.ok(isZero(await s.companySum()), 'the books balance');
  },
);

t.test(
  "a party's payments: vendor_id / customer_id filter the list in the ledger, the other side's name is refused",
  async (t) => {
    const s = await arapSetup(t);
    for (const vc of SIDES) {
      const other = await s.api('POST', `/arap/${vc}`, { name: `Other ${vc}` });
      t.equal(other.status, 201);
      const mine = await posted(s, vc);
      const theirs = await posted(s, vc, { [`${vc}_id`]: other.body.id });
      const a = await pay(s, vc, { document_id: mine, amount: 10 });
      const b = await pay(s, vc, { document_id: theirs, amount: 20 });
      const c = await pay(s, vc, { document_id: mine, amount: 30, date: '2024-03-22' });
      t.equal(
        [a, b, c].every((r) => r.status === 201),
        true,
      );
      const list = await s.api('GET', `/arap/payments/${vc}?${vc}_id=${s.parties[vc].id}&sort=-date`);
      t.equal(list.status, 200);
      t.same(
        list.body.map((p: { id: number }) => p.id),
        [c.body.id, a.body.id],
        "only the party's payments, newest first",
      );
      t.equal(list.headers.get('x-total-count'), '2', 'the count is filtered too');
      const others = await s.api('GET', `/arap/payments/${vc}?${vc}_id=${other.body.id}`);
      t.same(
        others.body.map((p: { id: number }) => p.id),
        [b.body.id],
      );
      const wrongSide = vc === 'vendor' ? 'customer_id' : 'vendor_id';
      const refused = await s.api('GET', `/arap/payments/${vc}?${wrongSide}=${s.parties[vc].id}`);
      t.equal(refused.status, 400, "the other side's party field is not a filter of this side");
    }
  },
);

t.test(
  'the guards "no update / no reversal while paid" hold with real payments; reversing the payment lifts them',
  async (t) => {
    const s = await arapSetup(t);
    const id = await posted(s, 'vendor');
    const payment = await pay(s, 'vendor', { document_id: id, amount: 8.1 });
    t.equal(payment.status, 201);

    const update = await s.api('POST', `/arap/transaction/vendor/${id}`, s.doc('vendor'));
    t.equal(update.status, 409);
    t.match(update.body.error.message, /payments/);
    const reverse = await s.api('POST', `/arap/transaction/vendor/${id}/reverse`, { date: '2024-03-31' });
    t.equal(reverse.status, 409);
    t.match(reverse.body.error.message, /payments/);

    const deleted = await s.api('DELETE', `/arap/payment/vendor/${payment.body.id}`);
    t.equal(deleted.status, 200);
    t.match(deleted.body, { id: payment.body.id, status: 'reversed', reversal_date: '2024-03-20' });
    t.equal(deleted.body.postings.length, 4, 'the payment lines and their negation');
    t.ok(
      deleted.body.postings.every((p: { date: string }) => p.date === '2024-03-20'),
      "the reversal is dated the payment's own date",
    );
    const doc = (await s.api('GET', `/arap/transaction/vendor/${id}`)).body;
    t.match(doc, { paid: 0, open: 108.1, payment_status: 'open' }, 'the open amount comes back');

    const twice = await s.api('DELETE', `/arap/payment/vendor/${payment.body.id}`);
    t.equal(twice.status, 409, 'reversing twice is a conflict');
    t.equal((await s.api('DELETE', '/arap/payment/vendor/999999')).status, 404);
    t.equal(
      (await s.api('DELETE', `/arap/payment/customer/${payment.body.id}`)).status,
      404,
      'a payment of the other side',
    );
    t.equal((await s.api('GET', `/arap/payments/vendor?status=reversed`)).body.length, 1);
    t.equal((await s.api('GET', `/arap/payments/vendor?status=posted`)).body.length, 0);

    const updated = await s.api(
      'POST',
      `/arap/transaction/vendor/${id}`,
      s.doc('vendor', { lines: [{ account: CHART.vendor.line, amount: 200 }] }),
    );
    t.equal(updated.status, 200, 'a document whose payments are all reversed can be changed again');
    t.equal(updated.body.postings.length, 2, 'its own lines only');
    t.ok(isZero(await accountSum(s, id, '1020')), "the reversed payment's bank lines stay and net to zero");
    const reversed = await s.api('POST', `/arap/transaction/vendor/${id}/reverse`, { date: '2024-03-31' });
    t.equal(reversed.status, 201);
    const reversal = (await s.api('GET', `/arap/transaction/vendor/${reversed.body.id}`)).body;
    t.equal(reversal.postings.length, 2, "the reversal negates the document's lines, not its payments'");
    t.ok(isZero(await s.companySum()), 'the books balance');

    const audit = await s.q((tx) =>
      tx('audit_log')
        .where({ entity: 'vendor_payment', entity_id: String(payment.body.id) })
        .orderBy('id')
        .pluck('action'),
    );
    t.same(audit, ['create', 'reverse']);
  },
);

t.test(
  'what may be paid: 409 for drafts, reversed documents and reversals; 400 for unknown documents, accounts, dates ' +
    'and amounts',
  async (t) => {
    const s = await arapSetup(t);
    const draft = await s.api('POST', '/arap/transaction/customer', s.doc('customer'));
    const r1 = await pay(s, 'customer', { document_id: draft.body.id, amount: 10 });
    t.equal(r1.status, 409);
    t.match(r1.body.error, { code: 'conflict', field: '/document_id' });
    t.match(r1.body.error.message, /draft; only posted documents/);

    const id = await posted(s, 'customer');
    const reversal = await s.api('POST', `/arap/transaction/customer/${id}/reverse`, { date: '2024-03-31' });
    t.equal((await pay(s, 'customer', { document_id: id, amount: 10 })).status, 409, 'reversed');
    const onReversal = await pay(s, 'customer', { document_id: reversal.body.id, amount: 10, date: '2024-04-01' });
    t.equal(onReversal.status, 409, 'a reversal is not paid');

    const open = await posted(s, 'customer');
    const cases: [string, Record<string, unknown>, number, string, string?][] = [
      ['unknown document', { document_id: 999999, amount: 10 }, 400, '/document_id'],
      ['document of the other side', { document_id: await posted(s, 'vendor'), amount: 10 }, 400, '/document_id'],
      ['unknown account', { document_id: open, amount: 10, account: '9999' }, 400, '/account'],
      ['account without AR_paid', { document_id: open, amount: 10, account: '3400' }, 400, '/account'],
      ['before the document date', { document_id: open, amount: 10, date: '2024-03-14' }, 400, '/date'],
      ['zero', { document_id: open, amount: 0 }, 400, '/amount'],
      ['negative', { document_id: open, amount: -5 }, 400, '/amount'],
      ['more decimals than CHF', { document_id: open, amount: 10.005 }, 400, '/amount'],
      [
        'a rate for a base-currency document',
        { document_id: open, amount: 10, exchangerate: 1.1 },
        400,
        '/exchangerate',
      ],
      ['above the open amount', { document_id: open, amount: 108.11 }, 400, '/amount', 'overpayment'],
    ];
    for (const [what, body, status, field, code = 'invalid_request'] of cases) {
      const r = await pay(s, 'customer', body);
      t.equal(r.status, status, what);
      t.match(r.body.error, { code, field }, what);
    }
    t.equal(
      (await pay(s, 'customer', { document_id: open, amount: 10, exchangerate: 1 })).status,
      201,
      'rate 1 is accepted for the base currency',
    );
    const count = await s.q((tx) => tx('arap_payments').count({ n: '*' }).first());
    t.equal(Number(count?.n), 1, 'only the valid payment was written');
  },
);

t.test('closed period: paying into it or reversing a payment dated in it → 422 closed_period', async (t) => {
  const s = await arapSetup(t);
  const id = await posted(s, 'customer');
  const early = await pay(s, 'customer', { document_id: id, amount: 10, date: '2024-03-20' });
  t.equal(early.status, 201);
  t.equal((await s.api('POST', '/system/close_books', { date: '2024-03-31' })).status, 200);

  const closed = await pay(s, 'customer', { document_id: id, amount: 10, date: '2024-03-31' });
  t.equal(closed.status, 422);
  t.match(closed.body.error, { code: 'closed_period', field: '/date' });
  const reverse = await s.api('DELETE', `/arap/payment/customer/${early.body.id}`);
  t.equal(reverse.status, 422, "the reversal would be dated the payment's own, closed, date");
  t.equal(reverse.body.error.code, 'closed_period');
  t.equal(
    (await pay(s, 'customer', { document_id: id, amount: 10, date: '2024-04-01' })).status,
    201,
    'after the closing date',
  );
});

t.test(
  "permissions: the side's payment permission; viewers read; the approval limit applies to the payment's base amount",
  async (t) => {
    const s = await arapSetup(t);
    const vendorDoc = await posted(s, 'vendor');
    const customerDoc = await posted(s, 'customer');
    const clerk = await memberApi(s, s.co, 'clerk');
    const denied = await clerk('POST', '/arap/payment/vendor', {
      document_id: vendorDoc,
      amount: 10,
      account: '1020',
      date: '2024-03-20',
    });
    t.equal(denied.status, 403);
    t.match(denied.body.error.message, /vendors\.postings\.payment/);
    const deniedAr = await clerk('POST', '/arap/payment/customer', {
      document_id: customerDoc,
      amount: 10,
      account: '1020',
      date: '2024-03-20',
    });
    t.match(deniedAr.body.error.message, /customers\.postings\.receipt/);

    const paid = await pay(s, 'vendor', { document_id: vendorDoc, amount: 10 });
    t.equal((await clerk('DELETE', `/arap/payment/vendor/${paid.body.id}`)).status, 403, 'reversing needs it too');
    const viewer = await memberApi(s, s.co, 'viewer');
    t.equal((await viewer('GET', '/arap/payments/vendor')).status, 200);
    t.equal((await viewer('GET', `/arap/payment/vendor/${paid.body.id}`)).status, 200);
    t.equal((await viewer('GET', '/arap/aging/vendor')).status, 200);

    const limited = await memberApi(s, s.co, 'accountant', '40');
    const over = await limited('POST', '/arap/payment/customer', {
      document_id: customerDoc,
      amount: 40.05,
      account: '1020',
      date: '2024-03-20',
    });
    t.equal(over.status, 400);
    t.match(over.body.error, { code: 'amount_exceeded', field: '/amount' });
    t.match(over.body.error.message, /40\.05 CHF exceeds your approval limit of 40\.00 CHF/);
    t.equal(
      (
        await limited('POST', '/arap/payment/customer', {
          document_id: customerDoc,
          amount: 40,
          account: '1020',
          date: '2024-03-20',
        })
      ).status,
      201,
    );
  },
);

t.test(
  'foreign currency: the payment rate, the difference to the FX gain/loss account, the control account cleared exactly',
  async (t) => {
    const s = await arapSetup(t);
    // customer: 1000 EUR at 0.95 → receivable 950.00 CHF
    const ar = await posted(s, 'customer', {
      curr: 'EUR',
      exchangerate: 0.95,
      lines: [{ account: CHART.customer.line, amount: 1000 }],
    });
    const noRate = await pay(s, 'customer', { document_id: ar, amount: 400 });
    t.equal(noRate.status, 400, 'the payment rate is required, never silently the document rate');
    t.match(noRate.body.error, { code: 'invalid_request', field: '/exchangerate' });

    const gain = await pay(s, 'customer', { document_id: ar, amount: 400, exchangerate: 0.97 });
    t.equal(gain.status, 201);
    t.same(
      (await paymentLines(s, gain.body.id)).map((l) => [l.accno, l.amount, l.fx_amount, l.kind]),
      [
        ['1020', '388.000000', '400.000000', 'payment'],
        ['1100', '-380.000000', '-400.000000', 'payment'],
        ['6950', '-8.000000', '0.000000', 'fx'],
      ],
      '400 EUR at 0.97 = 388.00 in the bank, 400/1000 of 950.00 = 380.00 cleared, 8.00 gain (credit)',
    );
    t.match((await s.api('GET', `/arap/payment/customer/${gain.body.id}`)).body, {
      base_amount: 388,
      cleared_base_amount: 380,
      fx_gain_loss: 8,
      exchangerate: 0.97,
      currency: 'EUR',
    });

    const loss = await pay(s, 'customer', { document_id: ar, amount: 600, exchangerate: 0.93 });
    t.same(
      (await paymentLines(s, loss.body.id)).map((l) => [l.accno, l.amount, l.kind]),
      [
        ['1020', '558.000000', 'payment'],
        ['1100', '-570.000000', 'payment'],
        ['6950', '12.000000', 'fx'],
      ],
      'the final payment clears the rest (950.00 − 380.00); 600 EUR at 0.93 = 558.00; loss 12.00 (debit)',
    );
    t.equal((await s.api('GET', `/arap/payment/customer/${loss.body.id}`)).body.fx_gain_loss, -12);
    t.ok(isZero(await accountSum(s, ar, '1100')), 'receivable cleared exactly in CHF');
    t.equal(await accountSum(s, ar, '6950'), '4.000000', 'net FX loss 4.00');
    t.match((await s.api('GET', `/arap/transaction/customer/${ar}`)).body, {
      paid: 1000,
      open: 0,
      payment_status: 'paid',
    });

    // vendor: 1000 EUR at 0.95 → payable −950.00; paid at 0.97 → 970.00 out of the bank, loss 20.00
    const ap = await posted(s, 'vendor', {
      curr: 'EUR',
      exchangerate: 0.95,
      lines: [{ account: CHART.vendor.line, amount: 1000 }],
    });
    const out = await pay(s, 'vendor', { document_id: ap, amount: 1000, exchangerate: 0.97 });
    t.same(
      (await paymentLines(s, out.body.id)).map((l) => [l.accno, l.amount, l.kind]),
      [
        ['1020', '-970.000000', 'payment'],
        ['2000', '950.000000', 'payment'],
        ['6950', '20.000000', 'fx'],
      ],
    );
    t.equal((await s.api('GET', `/arap/payment/vendor/${out.body.id}`)).body.fx_gain_loss, -20);
    t.ok(isZero(await accountSum(s, ap, '2000')), 'payable cleared exactly');

    // a vendor paid at a lower rate than booked: gain
    const ap2 = await posted(s, 'vendor', {
      curr: 'USD',
      exchangerate: 0.9,
      lines: [{ account: CHART.vendor.line, amount: 333.33 }],
    });
    const cheap = await pay(s, 'vendor', { document_id: ap2, amount: 111.11, exchangerate: 0.85 });
    t.same(
      (await paymentLines(s, cheap.body.id)).map((l) => [l.accno, l.amount]),
      [
        ['1020', '-94.440000'], // 111.11 × 0.85 = 94.4435 → 94.44
        ['2000', '100.000000'], // 300.00 (333.33 × 0.9 = 299.997 → 300.00) × 111.11 / 333.33 = 100.0009 → 100.00
        ['6950', '-5.560000'],
      ],
      'partial: the proportional share of the posted base amount',
    );
    t.equal((await s.api('GET', `/arap/payment/vendor/${cheap.body.id}`)).body.fx_gain_loss, 5.56);

    const reversed = await s.api('DELETE', `/arap/payment/customer/${gain.body.id}`);
    t.equal(reversed.status, 200);
    t.match((await s.api('GET', `/arap/transaction/customer/${ar}`)).body, {
      paid: 600,
      open: 400,
      payment_status: 'partial',
    });
    t.equal(await accountSum(s, ar, '1100'), '380.000000', 'the reversal puts back what the payment cleared');
    t.equal(await accountSum(s, ar, '6950'), '12.000000', 'and takes its gain back');
    t.ok(isZero(await s.companySum()), 'the books balance');
  },
);

t.test('invoices are paid like transactions; their reads and payment_status filter follow', async (t) => {
  const s = await arapSetup(t);
  const created = await s.api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: s.parties.customer.id,
    invDate: '2024-03-15',
    pending: '0',
    items: [
      {
        description: 'Consulting',
        quantity: 2,
        price: 150,
        account: CHART.customer.line,
        taxAccount: CHART.customer.tax,
      },
    ],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as number;
  const r = await pay(s, 'customer', { document_id: id, amount: 100 });
  t.equal(r.status, 201);
  t.match((await s.api('GET', `/arap/invoice/customer/${id}`)).body, {
    grossAmount: 324.3,
    paid: 100,
    open: 224.3,
    payment_status: 'partial',
  });
  t.same(
    (await s.api('GET', '/arap/invoices/customer?payment_status=partial')).body.map((i: { id: number }) => i.id),
    [id],
  );
  t.equal((await s.api('GET', `/arap/payment/customer/${r.body.id}`)).body.document_kind, 'invoice');
  const update = await s.api('POST', `/arap/invoice/customer/${id}`, {
    type: 'invoice',
    customer_id: s.parties.customer.id,
    invDate: '2024-03-15',
    items: [{ description: 'Consulting', quantity: 1, price: 150, account: CHART.customer.line }],
  });
  t.equal(update.status, 409, 'a paid invoice cannot be changed');
});

t.test('two concurrent payments of one document cannot overpay it', async (t) => {
  const s = await arapSetup(t);
  for (let round = 0; round < 3; round++) {
    const id = await posted(s, 'customer'); // 108.10
    const results = await Promise.all([
      pay(s, 'customer', { document_id: id, amount: 60 }),
      pay(s, 'customer', { document_id: id, amount: 60 }),
    ]);
    t.same(results.map((r) => r.status).sort(), [201, 400], 'one is recorded, the other finds 48.10 open');
    t.equal(results.find((r) => r.status === 400)!.body.error.code, 'overpayment');
    t.match((await s.api('GET', `/arap/transaction/customer/${id}`)).body, { paid: 60, open: 48.1 });
  }
});
