/**
 * The VAT return over HTTP on a real ledger (docs/vat.md): the worked examples of both methods
 * to the cent, the figures tied to the ledger, every figure's lines summing to it, corrections,
 * settlement clearing the tax accounts, the settled period's lock, and the refusals.
 */
import t from 'tap';
import { arapSetup, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';

type Line = { account: string; amount: number; taxAccount?: string };

async function post(s: ArapSetup, vc: Vc, invDate: string, lines: Line[]): Promise<number> {
  const r = await s.api('POST', `/arap/transaction/${vc}`, s.doc(vc, { invDate, lines, pending: '0' }));
  if (r.status !== 201) throw new Error(`posting failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

const journal = (transdate: string, lines: { account: string; debit?: number; credit?: number }[]) => ({
  transdate,
  pending: '0',
  lines,
});

const OUTPUT_ACCOUNTS = ['2200', '2201', '2202', '2205', '2206', '2207'];
const INPUT_ACCOUNTS = ['1170', '1171', '1172'];

/** The period's change of some accounts from the trial balance (debit positive), in cents. */
async function change(s: ArapSetup, from: string, to: string, accnos: readonly string[]): Promise<number> {
  const tb = await s.api('GET', `/reports/trial_balance?from=${from}&to=${to}`);
  let cents = 0;
  for (const a of tb.body.accounts as { accno: string; debit: number; credit: number }[]) {
    if (accnos.includes(a.accno)) cents += Math.round(a.debit * 100) + Math.round(a.credit * 100);
  }
  return cents;
}

/** The worked example of docs/vat.md "Effective method". */
async function effectiveExample(t: Parameters<typeof arapSetup>[0]) {
  const s = await arapSetup(t, { currency: 'CHF' });
  await post(s, 'customer', '2025-02-15', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-02-18', [
    { account: '3000', amount: 500, taxAccount: '2201' },
    { account: '3400', amount: 200, taxAccount: '2200' },
  ]);
  await post(s, 'customer', '2025-02-20', [{ account: '3000', amount: 700, taxAccount: '2205' }]);
  await post(s, 'customer', '2025-03-01', [{ account: '3400', amount: 300 }]);
  await post(s, 'vendor', '2025-01-20', [{ account: '4000', amount: 400, taxAccount: '1170' }]);
  await post(s, 'vendor', '2025-03-03', [{ account: '6570', amount: 1000, taxAccount: '1172' }]);
  // a sale of the next quarter: not in this return
  await post(s, 'customer', '2025-04-02', [{ account: '3400', amount: 5000, taxAccount: '2200' }]);
  // a correction booked by hand on the output tax account
  const je = await s.api(
    'POST',
    '/gl/transactions',
    journal('2025-03-20', [
      { account: '2200', debit: 5 },
      { account: '3400', credit: 5 },
    ]),
  );
  if (je.status !== 201) throw new Error(JSON.stringify(je.body));
  return s;
}

t.test('effective method: the worked example to the cent, tied to the ledger, lines sum to every figure', async (t) => {
  const s = await effectiveExample(t);
  const wrong = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-02-28' });
  t.equal(wrong.status, 400, 'a period off the quarter is refused');
  t.match(wrong.body.error.message, /2025-01-01 to 2025-03-31/, 'naming the expected bounds');
  t.equal(wrong.body.error.code, 'invalid_request');
  t.equal((await s.api('GET', '/reports/vat/returns')).body.length, 0, 'nothing written');

  const created = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const r = created.body;
  t.match(r, { type: 'original', method: 'effective', basis: 'agreed', status: 'draft', settlement_id: null });
  t.same(r.figures, {
    '200': 2700,
    '220': 700,
    '221': 0,
    '230': 0,
    '280': 300,
    '289': 1000,
    '299': 1700,
    '302': 0,
    '302_tax': 0,
    '303': 1200,
    '303_tax': 92.2,
    '312': 0,
    '312_tax': 0,
    '313': 500,
    '313_tax': 13,
    '342': 0,
    '342_tax': 0,
    '343': 0,
    '343_tax': 0,
    '382': 0,
    '382_tax': 0,
    '383': 0,
    '383_tax': 0,
    '399': 105.2,
    '400': 32.4,
    '405': 81,
    '479': 113.4,
    '500': 0,
    '510': 8.2,
  });
  t.equal(r.payable, -8.2, 'a credit in favour of the company');

  t.equal(
    Math.round(r.figures['399'] * 100),
    -(await change(s, '2025-01-01', '2025-03-31', OUTPUT_ACCOUNTS)),
    "399 is the period's change of the output tax accounts",
  );
  t.equal(
    Math.round(r.figures['479'] * 100),
    await change(s, '2025-01-01', '2025-03-31', INPUT_ACCOUNTS),
    "479 is the period's change of the input tax accounts",
  );

  for (const [figure, value] of Object.entries(r.figures as Record<string, number>)) {
    const lines = await s.api('GET', `/reports/vat/returns/${r.id}/figures/${figure}`);
    t.equal(lines.status, 200, `figure ${figure} drills down`);
    t.equal(lines.body.total, value, `figure ${figure}: total as on the return`);
    const column = lines.body.column as 'base' | 'tax';
    const sum = (lines.body.lines as Record<string, number>[]).reduce((a, l) => a + Math.round(l[column]! * 100), 0);
    t.equal(sum, Math.round(value * 100), `figure ${figure}: its lines sum to it`);
  }
  const taxLines = await s.api('GET', `/reports/vat/returns/${r.id}/figures/303_tax`);
  t.same(
    (taxLines.body.lines as { kind: string; tax: number }[]).map((l) => [l.kind, l.tax]),
    [
      ['transaction', 81],
      ['transaction', 16.2],
      ['journal', -5],
    ],
    'documents and the journal entry behind the standard-rate tax',
  );
  t.equal((await s.api('GET', `/reports/vat/returns/${r.id}/figures/999`)).status, 404, 'no such figure');

  const again = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
  t.equal(again.status, 409, 'a second original of the period');
  t.equal((await s.api('GET', '/reports/vat/returns')).body.length, 1, 'nothing written');
  const read = await s.api('GET', `/reports/vat/returns/${r.id}`);
  t.same(read.body.figures, r.figures, 'read back as frozen');
});

t.test('the return is frozen; a correction reports the differences against the original', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  await post(s, 'customer', '2025-05-10', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  const original = (await s.api('POST', '/reports/vat/returns', { from: '2025-04-01', to: '2025-06-30' })).body;
  t.equal(original.figures['303_tax'], 81);
  await post(s, 'customer', '2025-06-10', [{ account: '3400', amount: 200, taxAccount: '2200' }]);
  t.equal((await s.api('GET', `/reports/vat/returns/${original.id}`)).body.figures['303_tax'], 81, 'still frozen');
  const correction = await s.api('POST', '/reports/vat/returns', {
    from: '2025-04-01',
    to: '2025-06-30',
    type: 'correction',
  });
  t.equal(correction.status, 201, JSON.stringify(correction.body));
  t.match(correction.body.figures, { '200': 200, '303': 200, '303_tax': 16.2, '399': 16.2, '500': 16.2 });
  t.equal(correction.body.payable, 16.2);
  const noOriginal = await s.api('POST', '/reports/vat/returns', {
    from: '2025-07-01',
    to: '2025-09-30',
    type: 'correction',
  });
  t.equal(noOriginal.status, 409, 'a correction needs its original');
  const deleted = await s.api('DELETE', `/reports/vat/returns/${correction.body.id}`);
  t.equal(deleted.status, 204, 'a draft can be deleted');
  const left = await s.q(async (tx) =>
    Number((await tx('vat_return_lines').where({ return_id: correction.body.id }).count({ n: '*' }).first())?.n),
  );
  t.equal(left, 0, 'with its frozen lines');
  const orphan = await s
    .q(async (tx) =>
      tx.raw(
        `insert into vat_return_lines (company_id, return_id, side, kind, source_id, date, base, tax)
       select company_id, 999999, 'ledger', 'journal', 1, '2025-04-01', 0, 0 from vat_returns limit 1`,
      ),
    )
    .catch((e: { code?: string }) => e.code);
  t.equal(orphan, '23503', 'a line without its return is refused');
});

t.test('settlement clears the tax accounts once; the settled period is locked for VAT postings', async (t) => {
  const s = await effectiveExample(t);
  const r = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' })).body;
  const settled = await s.api('POST', `/reports/vat/returns/${r.id}/settle`, {});
  t.equal(settled.status, 200, JSON.stringify(settled.body));
  t.equal(settled.body.payable, -8.2);
  const entry = await s.api('GET', `/gl/transactions/${settled.body.settlement_id}`);
  t.equal(entry.body.status, 'posted');
  t.equal(entry.body.transdate, '2025-03-31', "dated the period's last day");
  t.match(
    entry.body.lines.find((l: { account: string }) => l.account === '2209'),
    { debit: 8.2 },
    'the credit is claimed from the ESTV clearing account',
  );
  for (const accno of [...OUTPUT_ACCOUNTS, ...INPUT_ACCOUNTS]) {
    t.equal(await change(s, '2025-01-01', '2025-03-31', [accno]), 0, `tax account ${accno} is zero for the period`);
  }
  const read = (await s.api('GET', `/reports/vat/returns/${r.id}`)).body;
  t.match(read, { status: 'settled', settlement_id: settled.body.settlement_id });

  const twice = await s.api('POST', `/reports/vat/returns/${r.id}/settle`, {});
  t.equal(twice.status, 409, 'settling twice');
  t.equal((await s.api('DELETE', `/reports/vat/returns/${r.id}`)).status, 409, 'a settled return stays');

  const taxed = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      invDate: '2025-03-15',
      pending: '0',
      lines: [{ account: '3400', amount: 50, taxAccount: '2200' }],
    }),
  );
  t.equal(taxed.status, 422, 'a taxed sale into the settled period');
  t.equal(taxed.body.error.code, 'vat_period_filed');
  t.match(taxed.body.error.message, new RegExp(`VAT return ${r.id} for 2025-01-01 to 2025-03-31`));
  t.match(taxed.body.error.message, /open VAT period or file a correction/);
  const zeroRated = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      invDate: '2025-03-15',
      pending: '0',
      lines: [{ account: '3000', amount: 50, taxAccount: '2205' }],
    }),
  );
  t.equal(zeroRated.status, 422, 'a line with a zero-rated tax code too');
  const onTaxAccount = await s.api(
    'POST',
    '/gl/transactions',
    journal('2025-02-01', [
      { account: '1170', debit: 1 },
      { account: '1020', credit: 1 },
    ]),
  );
  t.equal(onTaxAccount.status, 422, 'a journal entry on a tax account');
  t.equal(onTaxAccount.body.error.code, 'vat_period_filed');
  const draftDoc = s.doc('customer', {
    invDate: '2025-03-15',
    lines: [{ account: '3400', amount: 50, taxAccount: '2200' }],
  });
  const draft = await s.api('POST', '/arap/transaction/customer', draftDoc);
  t.equal(draft.status, 201, 'a draft books nothing and is kept');
  const approve = await s.api('POST', `/arap/transaction/customer/${draft.body.id}/approve`, {
    ...draftDoc,
    pending: '0',
  });
  t.equal(approve.body.error?.code, 'vat_period_filed', JSON.stringify(approve.body));
  t.equal(approve.status, 422, 'its approval into the settled period is refused');
  const untaxed = await s.api(
    'POST',
    '/gl/transactions',
    journal('2025-02-01', [
      { account: '6000', debit: 10 },
      { account: '1020', credit: 10 },
    ]),
  );
  t.equal(untaxed.status, 201, 'postings without VAT in the period still work');
  const next = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      invDate: '2025-04-15',
      pending: '0',
      lines: [{ account: '3400', amount: 50, taxAccount: '2200' }],
    }),
  );
  t.equal(next.status, 201, 'the next period is open');
});

t.test('net tax rate method: the worked example (6.2 % of 10,810.00 is 670.22) and its settlement', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  const settings = await s.api('POST', '/system/company', {
    vat_method: 'net_tax',
    vat_period: 'half_year',
    net_tax_rates: [{ rate: 0.062, description: 'Software development', activity_code: '524' }],
  });
  t.equal(settings.status, 200, JSON.stringify(settings.body));
  t.match(settings.body, { vat_method: 'net_tax', vat_basis: 'agreed', vat_period: 'half_year' });
  await post(s, 'customer', '2025-02-15', [{ account: '3400', amount: 6000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-05-20', [{ account: '3400', amount: 4000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-06-01', [{ account: '3000', amount: 1000, taxAccount: '2205' }]);
  const quarter = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
  t.equal(quarter.status, 400, 'a quarter is not a half year');
  const r = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-06-30' });
  t.equal(r.status, 201, JSON.stringify(r.body));
  t.same(r.body.figures, {
    '200': 11810,
    '220': 1000,
    '221': 0,
    '230': 0,
    '280': 0,
    '289': 1000,
    '299': 10810,
    '323': 10810,
    '323_tax': 670.22,
    '399': 670.22,
    '500': 670.22,
    '510': 0,
  });
  t.equal(r.body.payable, 670.22);
  const lines = await s.api('GET', `/reports/vat/returns/${r.body.id}/figures/323_tax`);
  t.same(
    (lines.body.lines as { tax: number }[]).map((l) => l.tax),
    [402.13, 268.09],
    "each sale's share, the rounding on the largest",
  );
  const settled = await s.api('POST', `/reports/vat/returns/${r.body.id}/settle`, { date: '2025-07-05' });
  t.equal(settled.status, 200, JSON.stringify(settled.body));
  const entry = (await s.api('GET', `/gl/transactions/${settled.body.settlement_id}`)).body;
  const by = (accno: string) => entry.lines.find((l: { account: string }) => l.account === accno);
  t.match(by('2200'), { debit: 810 }, 'the output tax invoiced is cleared');
  t.match(by('2209'), { credit: 670.22 }, 'the tax owed goes to the ESTV clearing account');
  t.match(by('3809'), { credit: 139.78 }, 'the difference is income');
});

t.test('refusals: no VAT method, settle before the period ends', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  await s.api('POST', '/system/company', { vat_method: 'none' });
  const none = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
  t.equal(none.status, 400);
  await s.api('POST', '/system/company', { vat_method: 'effective', vat_period: 'month' });
  const month = await s.api('POST', '/reports/vat/returns', { from: '2025-02-01', to: '2025-02-28' });
  t.equal(month.status, 201, 'monthly periods');
  const early = await s.api('POST', `/reports/vat/returns/${month.body.id}/settle`, { date: '2025-02-10' });
  t.equal(early.status, 400, 'not before the period ends');
  const bad = await s.api('POST', '/system/company', { vat_payable_account: '2200' });
  t.equal(bad.status, 400, 'a tax account cannot be the ESTV clearing account');
});

t.test('the rates valid to 2023 report under 302/312, the 2024 rates under 303/313', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  await post(s, 'customer', '2023-11-10', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  await post(s, 'customer', '2023-12-01', [{ account: '3000', amount: 200, taxAccount: '2201' }]);
  const r = await s.api('POST', '/reports/vat/returns', { from: '2023-10-01', to: '2023-12-31' });
  t.equal(r.status, 201, JSON.stringify(r.body));
  const empty = await s.api('GET', `/reports/vat/returns/${r.body.id}/figures/303`);
  t.match(empty.body, { figure: '303', total: 0, column: 'base', lines: [] }, 'an empty turnover figure sums its base');
  t.match(r.body.figures, {
    '302': 1000,
    '302_tax': 77,
    '303': 0,
    '312': 200,
    '312_tax': 5,
    '313': 0,
    '399': 82,
  });
});

t.test('received considerations: turnover and input tax count on the payment date, pro rata', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  const settings = await s.api('POST', '/system/company', { vat_basis: 'received' });
  t.equal(settings.status, 200, JSON.stringify(settings.body));
  // a sale of 1,000.00 + 81.00 in February, half paid in March, the rest in April
  const sale = await post(s, 'customer', '2025-02-10', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  // a purchase of 400.00 + 32.40 in January, paid in full in February
  const purchase = await post(s, 'vendor', '2025-01-20', [{ account: '4000', amount: 400, taxAccount: '1170' }]);
  // a sale of March, not paid: not in the return
  const unpaid = await post(s, 'customer', '2025-03-20', [{ account: '3400', amount: 300, taxAccount: '2200' }]);
  const pay = (vc: Vc, id: number, amount: number, date: string) =>
    s.api('POST', `/arap/payment/${vc}`, { account: '1020', document_id: id, amount, date });
  t.equal((await pay('customer', sale, 540.5, '2025-03-05')).status, 201);
  t.equal((await pay('vendor', purchase, 432.4, '2025-02-01')).status, 201);
  t.equal((await pay('customer', sale, 540.5, '2025-04-10')).status, 201);

  const q1 = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
  t.equal(q1.status, 201, JSON.stringify(q1.body));
  t.match(q1.body, { basis: 'received' });
  t.match(q1.body.figures, {
    '200': 500,
    '299': 500,
    '303': 500,
    '303_tax': 40.5,
    '399': 40.5,
    '400': 32.4,
    '479': 32.4,
    '500': 8.1,
  });
  const lines = await s.api('GET', `/reports/vat/returns/${q1.body.id}/figures/303_tax`);
  t.same(
    (lines.body.lines as { id: number; date: string; base: number; tax: number }[]).map((l) => [
      l.id,
      l.date,
      l.base,
      l.tax,
    ]),
    [[sale, '2025-03-05', 500, 40.5]],
    "the sale's paid half, dated the payment's date",
  );
  const input = await s.api('GET', `/reports/vat/returns/${q1.body.id}/figures/400`);
  t.match(input.body.lines, [{ id: purchase, date: '2025-02-01', tax: 32.4 }]);

  const q2 = await s.api('POST', '/reports/vat/returns', { from: '2025-04-01', to: '2025-06-30' });
  t.match(q2.body.figures, { '303': 500, '303_tax': 40.5, '400': 0 }, 'the second half in the quarter it was paid');

  // settled, the quarter's payments of documents with tax are locked
  const settled = await s.api('POST', `/reports/vat/returns/${q1.body.id}/settle`, {});
  t.equal(settled.status, 200, JSON.stringify(settled.body));
  const entry = (await s.api('GET', `/gl/transactions/${settled.body.settlement_id}`)).body;
  const by = (accno: string) => entry.lines.find((l: { account: string }) => l.account === accno);
  t.match(by('2200'), { debit: 40.5 }, 'only the tax of what was received is cleared');
  t.match(by('1170'), { credit: 32.4 });
  t.match(by('2209'), { credit: 8.1 });
  const late = await pay('customer', unpaid, 10, '2025-03-31');
  t.equal(late.status, 422, JSON.stringify(late.body));
  t.equal(late.body.error.code, 'vat_period_filed');
  t.equal((await pay('customer', unpaid, 10, '2025-04-01')).status, 201, 'the next quarter is open');
});

t.test('received considerations: a reversed payment counts for nothing', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  await s.api('POST', '/system/company', { vat_basis: 'received' });
  const sale = await post(s, 'customer', '2025-02-10', [{ account: '3400', amount: 200, taxAccount: '2200' }]);
  const paid = await s.api('POST', '/arap/payment/customer', {
    account: '1020',
    document_id: sale,
    amount: 216.2,
    date: '2025-02-20',
  });
  t.equal(paid.status, 201, JSON.stringify(paid.body));
  t.equal((await s.api('DELETE', `/arap/payment/customer/${paid.body.id}`)).status, 200);
  const r = await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' });
  t.match(r.body.figures, { '200': 0, '303': 0, '303_tax': 0, '399': 0 });
  const lines = await s.api('GET', `/reports/vat/returns/${r.body.id}/figures/303`);
  t.same(
    (lines.body.lines as { base: number }[]).map((l) => l.base),
    [200, -200],
    'the payment and its reversal, both behind the figure',
  );
});

t.test('a document in a foreign currency: its tax as booked in CHF, the lines tied to the ledger', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  // three lines of 123.46 EUR at 8.1 % (10.00 each) at 1.0005: the tax ledger line is round(30.00 × 1.0005) =
  // 30.02, the lines' own conversions 3 × round(10.005) = 30.03: the first line carries the −0.01
  const lines = [
    { account: '3400', amount: 123.46, taxAccount: '2200' },
    { account: '3000', amount: 123.46, taxAccount: '2200' },
    { account: '3800', amount: 123.46, taxAccount: '2200' },
  ];
  const r0 = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', { invDate: '2025-02-15', curr: 'EUR', exchangerate: 1.0005, lines, pending: '0' }),
  );
  t.equal(r0.status, 201, JSON.stringify(r0.body));
  const r = (await s.api('POST', '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31' })).body;
  t.equal(
    Math.round(r.figures['399'] * 100),
    -(await change(s, '2025-01-01', '2025-03-31', OUTPUT_ACCOUNTS)),
    "399 is the change of the output tax account, the conversion's rounding included",
  );
  const drill = await s.api('GET', `/reports/vat/returns/${r.id}/figures/303_tax`);
  const sum = (drill.body.lines as { tax: number }[]).reduce((a, l) => a + Math.round(l.tax * 100), 0);
  t.equal(sum, Math.round(r.figures['303_tax'] * 100), 'the lines sum to the figure');
  t.equal(r.figures['303_tax'], 30.02, 'the tax as booked, not the sum of the converted lines (30.03)');
});
