import t from 'tap';
import { DOCUMENT_NUMBER_PATTERN } from '@ledger/shared/schemas/common';
import { printedDocumentNumber, proposeBill, proposedDocumentNumber, statedVat, type QrBill } from './rules.ts';

t.test('a proposed document number is one the ledger takes: control characters become "-", slashes stay', async (t) => {
  t.equal(proposedDocumentNumber('2024/0815'), '2024/0815');
  t.equal(proposedDocumentNumber('RE\\12\r\n3\u0085x'), 'RE\\12--3-x');
  t.equal(proposedDocumentNumber('x'.repeat(150)).length, 100);
  const qr: QrBill = {
    iban: 'CH4431999123000889012',
    creditor: { name: 'Muster AG' },
    amount: '10.00',
    currency: 'CHF',
    reference_type: 'NON',
    billing: { document_number: 'R/2024/17\n' },
  };
  const proposal = proposeBill(qr, null, { account: '6500', source: 'default' } as never, '2024-03-01');
  t.equal(proposal.bill.documentNumber, 'R/2024/17-');
  t.match(
    proposal.bill.documentNumber!,
    new RegExp(DOCUMENT_NUMBER_PATTERN, 'u'),
    'matches the schema the ledger checks writes against',
  );
});

t.test('the VAT a document states and the invoice number it prints', async (t) => {
  t.same(statedVat('Net 882.00\nVAT 8.1% on 882.00 71.44\nTotal CHF 953.44'), [
    { rate: '8.1', base: '882.00', tax: '71.44' },
  ]);
  t.same(statedVat("MWST 8.1% auf 2'307.11 186.88\nMwSt. 2,6 % auf 1’000,00 CHF 26,00\nVAT 8.1% on 2'307.11 186.88"), [
    { rate: '8.1', base: '2307.11', tax: '186.88' },
    { rate: '2.6', base: '1000.00', tax: '26.00' },
  ]);
  t.same(statedVat('CHE-123.456.788 MWST\nTotal CHF 953.44'), [], 'a VAT number is no statement');
  t.equal(printedDocumentNumber('Invoice RE-000042\nInvoice date: 2024-03-15'), 'RE-000042');
  t.equal(printedDocumentNumber('Invoice date: 2024-03-15\nInvoice no. 2024/117'), '2024/117');
  t.equal(printedDocumentNumber('Rechnungsnummer: 17.'), '17');
  t.equal(printedDocumentNumber('Rechnung Nr. R-17'), 'R-17');
  t.equal(printedDocumentNumber('Facture n° F2024-9'), 'F2024-9');
  t.equal(printedDocumentNumber('Reference: 00 00000 00000 00000 00000 42420'), undefined, 'a reference is no number');
});

t.test('the proposal: the stated VAT split, the printed number, never the company as its vendor', async (t) => {
  const qr: QrBill = {
    iban: 'CH4431999123000889012',
    creditor: { name: 'Muster Treuhand AG', zip: '8001', city: 'Zürich', country: 'CH' },
    amount: '953.44',
    currency: 'CHF',
    reference_type: 'QRR',
    reference: '000000000000000000000042420',
  };
  const text = 'Invoice RE-000042\nInvoice date: 2024-03-15\nNet 882.00\nVAT 8.1% on 882.00 71.44\nTotal CHF 953.44';
  const inputTaxes = [
    { accno: '1170', rate: '0.081000' },
    { accno: '1171', rate: '0.026000' },
  ];
  const other = { name: 'Beispiel GmbH', ownsIban: false };
  const usual = { account: '6500', source: 'default' as const };
  const p = proposeBill(qr, null, usual, '2024-03-20', { text, inputTaxes, company: other });
  t.same(p.bill.lines, [{ account: '6500', amount: 953.44, taxAccount: '1170' }], 'the stated rate, its tax account');
  t.equal(p.bill.documentNumber, 'RE-000042', 'the printed number');
  t.equal(p.bill.paymentReference, qr.reference, 'the reference is the payment reference only');
  t.match(p.new_vendor, { name: 'Muster Treuhand AG' });
  t.notOk(p.creditor_is_company);

  const more = proposeBill({ ...qr, amount: '1000.00' }, null, usual, '2024-03-20', {
    text,
    inputTaxes,
    company: other,
  });
  t.same(
    more.bill.lines,
    [
      { account: '6500', amount: 953.44, taxAccount: '1170' },
      { account: '6500', amount: 46.56 },
    ],
    'the rest of the amount without tax',
  );
  const noRate = proposeBill(qr, null, usual, '2024-03-20', { text, inputTaxes: [inputTaxes[1]!], company: other });
  t.same(noRate.bill.lines, [{ account: '6500', amount: 953.44 }], 'no tax account of the rate: one gross line');
  const less = proposeBill({ ...qr, amount: '900.00' }, null, usual, '2024-03-20', {
    text,
    inputTaxes,
    company: other,
  });
  t.same(less.bill.lines, [{ account: '6500', amount: 900 }], 'stated amounts beyond the QR-bill: one gross line');
  const unprinted = proposeBill(qr, null, usual, '2024-03-20', { text: '', inputTaxes, company: other });
  t.equal(unprinted.bill.documentNumber, undefined, 'no number printed: none, not the reference');

  for (const company of [
    { name: 'Muster Treuhand AG', ownsIban: false },
    { name: 'Someone Else AG', ownsIban: true },
  ]) {
    const own = proposeBill(qr, null, usual, '2024-03-20', { text, inputTaxes, company });
    t.equal(own.creditor_is_company, true, `${company.name}: the creditor is the company`);
    t.notOk(own.new_vendor, 'no new vendor');
    t.notOk(own.new_bank_account, 'no bank account');
  }
  const vendor = { id: 7, vendornumber: 'V-7', name: 'Muster Treuhand AG', matched_by: 'iban' as const };
  const held = proposeBill(qr, vendor, usual, '2024-03-20', {
    text,
    inputTaxes,
    company: { name: 'X', ownsIban: true },
  });
  t.notOk(held.creditor_is_company, "a vendor the books hold for the IBAN is the user's word");
  t.equal(held.bill.vendor_id, 7);
});
