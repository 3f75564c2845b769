/**
 * Bank automation end to end over HTTP on Postgres (docs/bank.md "Bank rules", "Proposals",
 * "Reconciliation"): a rule books the Swisscom debits at import with input tax, a settle rule
 * takes a cash discount, proposals are scored and accepted, the preview books nothing, a rule
 * is made from a booked line, and the account reconciles with the statement balance.
 */
import t from 'tap';
import { bankSetup, COMPANY_IBAN, type BankSetup } from '../../../test/fixtures/bank/setup.ts';

interface Entry {
  ref: string;
  date: string;
  amount: string;
  credit: boolean;
  name: string;
  iban?: string;
  text: string;
}

/** The counterparty of an entry: a credit's debtor, a debit's creditor, with the IBAN. */
function party(e: Entry): string {
  const [who, account] = e.credit ? ['Dbtr', 'DbtrAcct'] : ['Cdtr', 'CdtrAcct'];
  const iban = e.iban ? `<${account}><Id><IBAN>${e.iban}</IBAN></Id></${account}>` : '';
  return `<${who}><Pty><Nm>${e.name}</Nm></Pty></${who}>${iban}`;
}

/** A camt.053.001.08 statement of the company's CHF account. */
function camt053(id: string, opening: string, closing: string, closingDate: string, entries: Entry[]): string {
  const balance = (v: string) =>
    `<Amt Ccy="CHF">${v.replace('-', '')}</Amt><CdtDbtInd>${v.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd>`;
  const ntry = (e: Entry) => `
      <Ntry>
        <Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>${e.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt><AcctSvcrRef>${e.ref}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>AUTT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <RltdPties>${party(e)}</RltdPties>
          <RmtInf><Ustrd>${e.text}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${id}</MsgId><CreDtTm>${closingDate}T20:00:00+01:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${id}</Id>
      <Acct><Id><IBAN>${COMPANY_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp>${balance(opening)}
        <Dt><Dt>2024-01-01</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp>${balance(closing)}
        <Dt><Dt>${closingDate}</Dt></Dt></Bal>
      ${entries.map(ntry).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

const SWISSCOM = 'Swisscom (Schweiz) AG';
const swisscomDebits: Entry[] = ['2024-01-31', '2024-02-29', '2024-03-31'].map((date, i) => ({
  ref: `SC-${i + 1}`,
  date,
  amount: '108.10',
  credit: false,
  name: SWISSCOM,
  iban: 'CH9300762011623852957',
  text: `Rechnung Mobile ${date.slice(0, 7)}`,
}));

async function swisscomVendor(s: BankSetup): Promise<number> {
  const v = await s.api('POST', '/arap/vendor', { name: SWISSCOM });
  if (v.status !== 201) throw new Error(JSON.stringify(v.body));
  return v.body.id;
}

const swisscomRule = (vendorId: number, extra: Record<string, unknown> = {}) => ({
  name: 'Swisscom',
  auto: true,
  conditions: { direction: 'out', counterparty: 'swisscom' },
  action: { kind: 'book', account: '6510', tax: 'VAT-IN-STD', party_id: vendorId },
  ...extra,
});

t.test('Swisscom: a rule books three monthly debits at import with 8.1 % input tax on figure 405', async (t) => {
  const s = await bankSetup(t);
  const vendorId = await swisscomVendor(s);
  const rule = await s.api('POST', '/bank/rules', swisscomRule(vendorId));
  t.equal(rule.status, 201, JSON.stringify(rule.body));
  t.match(rule.headers.get('location'), new RegExp(`/bank/rules/${rule.body.id}$`));

  const file = camt053('STMT-Q1', '1000.00', '675.70', '2024-03-31', swisscomDebits);
  const imported = await s.send(file);
  t.equal(imported.status, 200, JSON.stringify(imported.body));
  t.match(imported.body, { imported: 3, duplicates: 0, matched: 3, balanced: true });

  const lines = (await s.api('GET', '/bank/transactions?sort=date')).body;
  t.equal(lines.length, 3);
  for (const l of lines) {
    t.match(l, { status: 'matched', rule_id: rule.body.id, account: '6510', proposals: [] });
    t.ok(l.document && l.payment_id, 'booked as a posted Swisscom document, paid from the bank account');
  }
  const bill = (await s.api('GET', `/arap/transaction/vendor/${lines[0].document.id}`)).body;
  t.match(bill, { status: 'posted', vendor_id: vendorId, grossAmount: 108.1, netAmount: 100, open: 0 });

  const vat = await s.api('GET', '/reports/vat?from=2024-01-01&to=2024-03-31');
  t.equal(vat.status, 200, JSON.stringify(vat.body));
  t.equal(vat.body.swiss_vat_return['405'], 24.3, 'three times 8.10 input tax on figure 405');
  t.equal(vat.body.swiss_vat_return['479'], 24.3);
  t.equal(Number(await s.balance('6510')), 300, 'the net amounts on 6510');
  t.equal(Number(await s.balance('1020')), -324.3, 'the bank account: the three debits');

  const again = await s.send(file);
  t.match(again.body, { imported: 0, duplicates: 3, matched: 0 }, 'importing it again books nothing');
  t.equal(Number(await s.balance('6510')), 300);

  // the statement's closing balance is kept: the ledger lacks only the opening balance
  const rec = await s.api('GET', `/bank/accounts/${s.bankAccountId}/reconciliation`);
  t.match(rec.body, {
    date: '2024-03-31',
    statement_balance: 675.7,
    ledger_balance: -324.3,
    difference: 1000,
    unbooked: [],
    unmatched_ledger_lines: [],
  });
});

t.test('a proposing rule above an auto rule keeps the line for a person; the first rule wins', async (t) => {
  const s = await bankSetup(t);
  const vendorId = await swisscomVendor(s);
  const propose = await s.api('POST', '/bank/rules', {
    name: 'Mobile invoices: look first',
    conditions: { text: 'mobile' },
    action: { kind: 'book', account: '6570' },
  });
  t.equal(propose.status, 201, JSON.stringify(propose.body));
  const auto = await s.api('POST', '/bank/rules', swisscomRule(vendorId));
  t.equal(
    (await s.api('GET', '/bank/rules')).body.map((r: { id: number }) => r.id).join(),
    `${propose.body.id},${auto.body.id}`,
  );
  const imported = await s.send(camt053('STMT-A', '0', '-108.10', '2024-01-31', swisscomDebits.slice(0, 1)));
  t.match(imported.body, { imported: 1, matched: 0 });
  const [line] = (await s.api('GET', '/bank/transactions')).body;
  t.match(line.proposals, [{ kind: 'rule', rule_id: propose.body.id, booking: { kind: 'book', account: '6570' } }]);
  t.match(line.proposals[0].why, [/bank rule "Mobile invoices: look first" matches: text contains "mobile"/]);

  // reordered, the auto rule comes first: the preview shows it, and books nothing
  const ordered = await s.api('POST', '/bank/rules/order', { ids: [auto.body.id, propose.body.id] });
  t.equal(ordered.status, 200, JSON.stringify(ordered.body));
  t.same(
    ordered.body.map((r: { id: number; priority: number }) => [r.id, r.priority]),
    [
      [auto.body.id, 10],
      [propose.body.id, 20],
    ],
  );
  const preview = await s.api('POST', '/bank/rules/preview', {});
  t.match(preview.body, [
    {
      transaction_id: line.id,
      rule_id: auto.body.id,
      auto: true,
      booking: { kind: 'book', account: '6510', tax: 'VAT-IN-STD' },
    },
  ]);
  t.equal((await s.api('GET', `/bank/transactions/${line.id}`)).body.status, 'unmatched', 'the preview books nothing');
  const only = await s.api('POST', '/bank/rules/preview', { ids: [propose.body.id] });
  t.match(only.body, [{ rule_id: propose.body.id }]);
  t.equal((await s.api('POST', '/bank/rules/order', { ids: [auto.body.id] })).status, 400, 'every rule named');

  // accepting the rule's proposal books it (booked by a person, with the rule's id)
  const proposals = (await s.api('GET', `/bank/transactions/${line.id}`)).body.proposals;
  t.equal(proposals[0].rule_id, auto.body.id);
  const stale = await s.api('POST', `/bank/transactions/${line.id}/book`, { proposal: 0, rule_id: propose.body.id });
  t.equal(stale.status, 409, 'a proposal that is no longer what the caller saw');
  t.match(stale.body.error.message, /is now bank rule/);
  const gone = await s.api('POST', `/bank/transactions/${line.id}/book`, { proposal: 5 });
  t.equal(gone.status, 409);
  const booked = await s.api('POST', `/bank/transactions/${line.id}/book`, { proposal: 0, rule_id: auto.body.id });
  t.equal(booked.status, 200, JSON.stringify(booked.body));
  t.match(booked.body, { status: 'booked', rule_id: auto.body.id, account: '6510' });
  t.equal(Number(await s.balance('1170')), 8.1);
});

t.test('settle rule: a payment less 2 % cash discount settles the invoice and books the discount', async (t) => {
  const s = await bankSetup(t);
  const invoice = await s.postInvoice(1000); // 1081.00
  const rule = await s.api('POST', '/bank/rules', {
    name: 'Globex pays with 2 % discount',
    auto: true,
    conditions: { counterparty: 'Globex' },
    action: {
      kind: 'settle',
      vc: 'customer',
      party_id: s.customerId,
      tolerance_percent: 2,
      difference_account: '3800',
    },
  });
  t.equal(rule.status, 201, JSON.stringify(rule.body));
  // 1081.00 less 2 % = 1059.38; a second credit that is too far off stays unmatched
  const entries: Entry[] = [
    { ref: 'G-1', date: '2024-03-10', amount: '1059.38', credit: true, name: 'Globex Corp', text: 'Payment' },
    { ref: 'G-2', date: '2024-03-11', amount: '500.00', credit: true, name: 'Globex Corp', text: 'Advance' },
  ];
  const imported = await s.send(camt053('STMT-G', '0', '1559.38', '2024-03-31', entries));
  t.match(imported.body, { imported: 2, matched: 1 });
  const paid = await s.api('GET', `/arap/invoice/customer/${invoice.id}`);
  t.match(paid.body, { payment_status: 'paid', open: 0 });
  t.equal(Number(await s.balance('3800')), 21.62, 'the discount on 3800');
  t.equal(Number(await s.balance('1100')), 0, 'the receivable cleared');
  t.equal(Number(await s.balance('1020')), 1059.38, 'the bank: what came in');
  const [settled] = (await s.api('GET', '/bank/transactions?status=matched')).body;
  t.match(settled, { rule_id: rule.body.id, document: { id: invoice.id } });
  t.ok(settled.journal_id, 'the difference is a journal entry of the line');

  // the other line: reconciliation names it and the difference; booked, the account reconciles
  const rec = await s.api('GET', `/bank/accounts/${s.bankAccountId}/reconciliation?date=2024-03-31`);
  t.match(rec.body, { statement_balance: 1559.38, ledger_balance: 1059.38, difference: 500 });
  t.match(rec.body.unbooked, [{ amount: 500, counterparty: 'Globex Corp' }]);
  t.equal(rec.body.unbooked.length, 1);
  const refused = await s.api('POST', `/bank/accounts/${s.bankAccountId}/reconcile`, {
    date: '2024-03-31',
    statement_balance: 1559.38,
  });
  t.equal(refused.status, 409);
  t.match(
    refused.body.error.message,
    /ledger balance 1059\.38 .* by 500\.00 CHF; unbooked bank lines: \d+ \(2024-03-11, 500\.00, Globex/,
  );

  const [open] = (await s.api('GET', '/bank/transactions?status=unmatched')).body;
  const byHand = await s.api('POST', `/bank/transactions/${open.id}/book`, { account: '2300' });
  t.equal(byHand.status, 200, JSON.stringify(byHand.body));
  const zero = await s.api('GET', `/bank/accounts/${s.bankAccountId}/reconciliation?date=2024-03-31`);
  t.match(zero.body, { difference: 0, unbooked: [], unmatched_ledger_lines: [] });
  const done = await s.api('POST', `/bank/accounts/${s.bankAccountId}/reconcile`, {
    date: '2024-03-31',
    statement_balance: 1559.38,
  });
  t.equal(done.status, 200, JSON.stringify(done.body));
  t.match(done.body, { date: '2024-03-31', statement_balance: 1559.38, ledger_balance: 1559.38, reconciled: 2 });
  t.match((await s.api('GET', `/bank/transactions/${open.id}`)).body, { reconciled_on: '2024-03-31' });
  t.equal(
    (await s.api('GET', `/bank/accounts/${s.bankAccountId}/reconciliation?date=2024-03-31`)).body.reconciled_to,
    '2024-03-31',
  );

  // a reconciled line's booking stays until the reconciliation is undone
  const journalId = (await s.api('GET', `/bank/transactions/${open.id}`)).body.journal_id;
  const blocked = await s.api('POST', `/gl/transactions/${journalId}/reverse`, { date: '2024-04-02' });
  t.equal(blocked.status, 409, JSON.stringify(blocked.body));
  t.match(blocked.body.error.message, /reconciled up to 2024-03-31: undo that reconciliation first/);
  // so does a payment's: the rule's settlement of the invoice
  t.ok(settled.payment_id, 'the rule settled the invoice by a payment');
  const paymentBlocked = await s.api('DELETE', `/arap/payment/customer/${settled.payment_id}`);
  t.equal(paymentBlocked.status, 409, JSON.stringify(paymentBlocked.body));
  t.match(
    paymentBlocked.body.error.message,
    new RegExp(`^Payment ${settled.payment_id} books bank line ${settled.id}, reconciled up to 2024-03-31`),
  );
  const undone = await s.api('DELETE', `/bank/accounts/${s.bankAccountId}/reconciliation?date=2024-03-31`);
  t.equal(undone.status, 204);
  t.equal((await s.api('GET', `/bank/transactions/${open.id}`)).body.reconciled_on, null);
  const reversed = await s.api('POST', `/gl/transactions/${journalId}/reverse`, { date: '2024-04-02' });
  t.equal(reversed.status, 201, JSON.stringify(reversed.body));

  // a rule from the line booked by hand
  const fromLine = await s.api('POST', `/bank/transactions/${open.id}/rule`, { auto: true });
  t.equal(fromLine.status, 201, JSON.stringify(fromLine.body));
  t.match((await s.api('GET', `/bank/rules/${fromLine.body.id}`)).body, {
    name: 'Globex Corp',
    auto: true,
    conditions: { direction: 'in', bank_account_id: s.bankAccountId, counterparty: 'Globex Corp' },
    action: { kind: 'book', account: '2300' },
  });
  t.equal((await s.api('POST', `/bank/transactions/${settled.id}/rule`, {})).status, 409, 'not from a payment');
});

t.test('proposals: open documents scored by amount, reference, name and date, accepted by index', async (t) => {
  const s = await bankSetup(t);
  const a = await s.postInvoice(100); // 108.10
  const b = await s.postInvoice(200); // 216.20
  const csv =
    'date,amount,currency,counterparty,iban,reference,description\n' +
    `2024-03-20,216.20,CHF,Globex Corp,,,Thanks\n` +
    `2024-03-21,108.10,CHF,Someone Else,,,${a.invNumber} and ${b.invNumber}\n`;
  const imported = await s.send(csv, 'text/csv', `?account=${s.bankAccountId}`);
  t.match(imported.body, { imported: 2, matched: 0 });
  const [first, second] = (await s.api('GET', '/bank/transactions?sort=date')).body;
  t.match(first.proposals[0], { kind: 'document', document_id: b.id, document_number: b.invNumber, open: 216.2 });
  t.equal(first.proposals[0].score, 55, 'amount 35, name 15, date 5');
  t.match(first.proposals[0].why, [
    /amount 216\.20 is the open amount/,
    /Globex Corp is like Globex Corp/,
    /days after/,
  ]);
  t.equal(first.proposals.length, 1, 'the other invoice: neither amount nor reference nor number');
  t.same(
    second.proposals.map((p: { document_id: number }) => p.document_id),
    [a.id],
    'the text names both, but only the one with the amount scores enough',
  );
  const wrong = await s.api('POST', `/bank/transactions/${first.id}/book`, { proposal: 0, document_id: a.id });
  t.equal(wrong.status, 409);
  const ok = await s.api('POST', `/bank/transactions/${first.id}/book`, { proposal: 0, document_id: b.id });
  t.equal(ok.status, 200, JSON.stringify(ok.body));
  t.match(ok.body, { status: 'booked', document: { id: b.id }, proposals: [] });
  t.match((await s.api('GET', `/arap/invoice/customer/${b.id}`)).body, { payment_status: 'paid' });
});

t.test('bad input gets a 4xx and writes nothing', async (t) => {
  const s = await bankSetup(t);
  const vendorId = await swisscomVendor(s);
  const cases: [string, Record<string, unknown>, string][] = [
    ['no condition', { ...swisscomRule(vendorId), conditions: { direction: 'out' } }, '/conditions'],
    ['unknown account', swisscomRule(vendorId, { action: { kind: 'book', account: '9999' } }), '/action/account'],
    [
      'unknown tax code',
      swisscomRule(vendorId, { action: { kind: 'book', account: '6510', tax: 'NOPE', party_id: vendorId } }),
      '/action/tax',
    ],
    [
      'tax without party',
      swisscomRule(vendorId, { action: { kind: 'book', account: '6510', tax: 'VAT-IN-STD' } }),
      '/action/party_id',
    ],
    [
      'tolerance above 10 %',
      {
        name: 'x',
        conditions: { counterparty: 'x' },
        action: {
          kind: 'settle',
          vc: 'customer',
          party_id: s.customerId,
          tolerance_percent: 12,
          difference_account: '3800',
        },
      },
      '',
    ],
    ['control account', swisscomRule(vendorId, { action: { kind: 'book', account: '2000' } }), '/action/account'],
    [
      'unknown party',
      swisscomRule(vendorId, { action: { kind: 'book', account: '6510', party_id: 999999 } }),
      '/action/party_id',
    ],
    ['a regular expression field', { ...swisscomRule(vendorId), conditions: { regex: '.*' } }, ''],
  ];
  for (const [what, body, field] of cases) {
    const res = await s.api('POST', '/bank/rules', body);
    t.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
    if (field) t.equal(res.body.error.field, field, what);
  }
  t.equal(await s.count('bank_rules'), 0, 'nothing stored');
  t.equal((await s.api('GET', '/bank/rules/12345')).status, 404);
  t.equal((await s.api('DELETE', '/bank/rules/12345')).status, 404);
  const wrong = await s.api('POST', `/bank/accounts/${s.bankAccountId}/reconcile`, {
    date: '2024-03-31',
    statement_balance: 5,
  });
  t.equal(wrong.status, 409);
  t.equal(await s.count('bank_reconciliations'), 0);

  // a rule is replaced whole and deleted
  const rule = await s.api('POST', '/bank/rules', swisscomRule(vendorId));
  const changed = await s.api(
    'POST',
    `/bank/rules/${rule.body.id}`,
    swisscomRule(vendorId, { auto: false, name: 'Swisscom mobile' }),
  );
  t.match(changed.body, { id: rule.body.id, name: 'Swisscom mobile', auto: false, priority: 10 });
  t.equal((await s.api('DELETE', `/bank/rules/${rule.body.id}`)).status, 204);
  t.equal(await s.count('bank_rules'), 0);
});

t.test('deleting a bank account: only an unused one', async (t) => {
  const s = await bankSetup(t);
  const spare = await s.api('POST', '/bank/accounts', {
    name: 'Spare',
    iban: 'CH56 0483 5012 3456 7800 9',
    currency: 'CHF',
    account: '1020',
  });
  t.equal(spare.status, 201, JSON.stringify(spare.body));
  const used = await s.api('DELETE', `/bank/accounts/${s.bankAccountId}`);
  t.equal(used.status, 409);
  t.match(used.body.error.message, /in use and cannot be deleted: .*invoice bank account/);
  t.equal((await s.api('DELETE', `/bank/accounts/${spare.body.id}`)).status, 204);
  t.equal((await s.api('GET', `/bank/accounts/${spare.body.id}`)).status, 404);
});
