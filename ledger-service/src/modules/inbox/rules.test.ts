import t from 'tap';
import { DOCUMENT_NUMBER_PATTERN } from '@ledger/shared/schemas/common';
import { proposeBill, proposedDocumentNumber, type QrBill } from './rules.ts';

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
