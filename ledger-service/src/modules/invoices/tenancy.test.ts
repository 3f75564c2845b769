/**
 * The documents' stores and reads (modules/arap, modules/invoices) name their company in every
 * query: run where row-level security does not apply (the tests' superuser, outside a tenant
 * transaction), company B's calls neither see nor change company A's invoice or transaction.
 */
import t from 'tap';
import { arapSetup, CHART } from '../../../test/arapHelpers.ts';
import { createTestCompany } from '../../../test/helpers.ts';
import { documentCurrency, listTransactions, readTransaction } from '../arap/reads.ts';
import { deleteEntries, documentEntries, lockHeader, markReversed, takenDocumentNumbers } from '../arap/store.ts';
import { listInvoices, readInvoice } from './reads.ts';
import { lockedPaymentReference, partyTerms, setPaymentReference } from './store.ts';

t.test("company B's store calls never reach A's documents", async (t) => {
  const s = await arapSetup(t);
  const b = await createTestCompany(s.ledger);
  const item = { description: 'Consulting', quantity: 1, price: 100, account: CHART.customer.line };
  const invoice = await s.api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: s.parties.customer.id,
    invDate: '2024-03-15',
    items: [item],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  const body = s.doc('vendor');
  const transaction = await s.api('POST', '/arap/transaction/vendor', body);
  t.equal(transaction.status, 201, JSON.stringify(transaction.body));
  const approved = await s.api('POST', `/arap/transaction/vendor/${transaction.body.id}/approve`, body);
  t.equal(approved.status, 200, JSON.stringify(approved.body));
  const invoiceId: number = invoice.body.id;
  const transactionId: number = transaction.body.id;
  const A = s.co.company.id;
  const B = b.company.id;
  const opts = { fileUrlBase: 'http://x/', baseCurrency: 'CHF' };
  const page = { sort: 'id', limit: 100, offset: 0 };
  await s.ledger.db.transaction(async (tx) => {
    t.equal((await readInvoice(tx, A, 'customer', invoiceId, opts))?.id, invoiceId, 'A reads its invoice');
    t.equal(await readInvoice(tx, B, 'customer', invoiceId, opts), undefined, 'B does not');
    t.equal((await listInvoices(tx, A, 'customer', page, '2024-12-31')).total, 1);
    t.equal((await listInvoices(tx, B, 'customer', page, '2024-12-31')).total, 0, "B's list has none of A's");
    t.equal((await readTransaction(tx, A, 'vendor', transactionId, opts))?.id, transactionId);
    t.equal(await readTransaction(tx, B, 'vendor', transactionId, opts), undefined);
    t.equal((await listTransactions(tx, B, 'vendor', page)).total, 0);
    t.equal(await documentCurrency(tx, B, 'vendor', transactionId), undefined);
    t.equal(await lockHeader(tx, B, 'vendor', transactionId), undefined, 'B cannot lock it');
    t.equal(await lockedPaymentReference(tx, B, invoiceId), undefined);
    t.equal(await partyTerms(tx, B, 'customer', { id: s.parties.customer.id, number: undefined }), undefined);
    const number = approved.body.invNumber as string;
    t.ok(number, 'the transaction has a number');
    t.same([...(await takenDocumentNumbers(tx, A, 'vendor', [number]))], [number]);
    t.same([...(await takenDocumentNumbers(tx, B, 'vendor', [number]))], [], "A's number is free for B");

    const entries = (await documentEntries(tx, A, transactionId)).length;
    t.ok(entries > 0, 'the posted transaction has entries');
    t.same(await documentEntries(tx, B, transactionId), [], "B sees none of A's entries");
    await deleteEntries(tx, B, transactionId);
    await markReversed(tx, B, transactionId, transactionId);
    await setPaymentReference(tx, B, invoiceId, 'taken by B');
    t.equal((await documentEntries(tx, A, transactionId)).length, entries, "B cannot delete A's entries");
    t.equal((await lockHeader(tx, A, 'vendor', transactionId))?.status, 'posted', 'nor reverse its document');
    t.equal((await lockedPaymentReference(tx, A, invoiceId))?.qr_reference, null, 'nor give its invoice a reference');
  });
});
