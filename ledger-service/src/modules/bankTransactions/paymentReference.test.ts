import t from 'tap';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { resolvePaymentReference } from '../arap/rules.ts';

// Examples of the Swiss Implementation Guidelines QR-bill and ISO 11649.
const QRR = '210000000003139471430009017';
const QRR_SPACED = '21 00000 00003 13947 14300 09017';
const SCOR = 'RF18539007547034';
const QR_IBAN = 'CH4431999123000889012';
const IBAN = 'CH9300762011623852957';

t.test('resolvePaymentReference: QRR with a QR-IBAN, SCOR otherwise, check digits', async (t) => {
  t.equal(resolvePaymentReference(undefined, null), null);
  t.equal(resolvePaymentReference(undefined, IBAN), null);
  t.equal(resolvePaymentReference(QRR_SPACED, QR_IBAN), QRR, 'compact form');
  t.equal(resolvePaymentReference('rf18 5390 0754 7034', IBAN), SCOR, 'upper case, compact');
  t.equal(resolvePaymentReference(SCOR, null), SCOR, 'a creditor reference needs no bank account');
  const refused = (ref: string | undefined, iban: string | null, msg: RegExp) =>
    t.throws(() => resolvePaymentReference(ref, iban), {
      code: 'invalid_request',
      field: '/paymentReference',
      message: msg,
    });
  refused(undefined, QR_IBAN, /QR-IBAN/);
  refused('210000000003139471430009018', QR_IBAN, /mod-10/);
  refused('21000000000313947143000901', QR_IBAN, /27 digits/);
  refused(QRR, IBAN, /only paid to a QR-IBAN/);
  refused(QRR, null, /only paid to a QR-IBAN/);
  refused('RF19539007547034', IBAN, /mod-97/);
  refused(SCOR, QR_IBAN, /not a creditor reference/);
  refused('INV-2024-1', IBAN, /neither/);
});

t.test(
  'vendor transactions and invoices: paymentReference stored, read, updated, refused with the field',
  async (t) => {
    const s = await arapSetup(t);
    const vendorId = s.parties.vendor.id;
    const qrBank = await s.api('POST', `/arap/vendor/${vendorId}/bank_accounts`, { iban: QR_IBAN });
    const plainBank = await s.api('POST', `/arap/vendor/${vendorId}/bank_accounts`, { iban: IBAN });
    t.equal(qrBank.status, 201);
    t.equal(plainBank.status, 201);

    const created = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', {
        vc_bank_id: qrBank.body.id,
        payment_file: 1,
        paymentReference: QRR_SPACED,
        pending: '0',
      }),
    );
    t.equal(created.status, 201, JSON.stringify(created.body));
    const read = await s.api('GET', `/arap/transaction/vendor/${created.body.id}`);
    t.equal(read.body.paymentReference, QRR, 'stored compact, returned on the read');
    const listed = await s.api('GET', `/arap/transactions/vendor?inv_number=${read.body.invNumber}`);
    t.equal(listed.body[0].paymentReference, QRR, 'and on list rows');

    const draft = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', { vc_bank_id: plainBank.body.id, paymentReference: SCOR }),
    );
    t.equal(draft.status, 201);
    const changed = await s.api(
      'POST',
      `/arap/transaction/vendor/${draft.body.id}`,
      s.doc('vendor', { vc_bank_id: plainBank.body.id, paymentReference: 'RF45G72UUR' }),
    );
    t.equal(changed.status, 200, JSON.stringify(changed.body));
    t.equal(changed.body.paymentReference, 'RF45G72UUR', 'accepted on update');
    const cleared = await s.api(
      'POST',
      `/arap/transaction/vendor/${draft.body.id}`,
      s.doc('vendor', { vc_bank_id: plainBank.body.id }),
    );
    t.notOk('paymentReference' in cleared.body, 'the complete document without it clears it');

    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ vc_bank_id: qrBank.body.id }, /QR-IBAN/],
      [{ vc_bank_id: qrBank.body.id, paymentReference: '210000000003139471430009018' }, /mod-10/],
      [{ vc_bank_id: plainBank.body.id, paymentReference: QRR }, /only paid to a QR-IBAN/],
      [{ vc_bank_id: plainBank.body.id, paymentReference: 'RF19539007547034' }, /mod-97/],
      [{ vc_bank_id: qrBank.body.id, paymentReference: SCOR }, /not a creditor reference/],
    ];
    for (const [extra, message] of refusals) {
      const r = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', extra));
      t.equal(r.status, 400, `${JSON.stringify(extra)} refused`);
      t.equal(r.body.error.field, '/paymentReference');
      t.match(r.body.error.message, message);
    }
    const customer = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { paymentReference: SCOR }));
    t.equal(customer.status, 400, 'customer documents do not take it');
    t.equal(customer.body.error.field, '/paymentReference');

    // vendor invoices share the header fields and rules
    const invoice = await s.api('POST', '/arap/invoice/vendor', {
      vendor_id: vendorId,
      invDate: '2024-03-15',
      vc_bank_id: qrBank.body.id,
      paymentReference: QRR,
      pending: '0',
      items: [{ description: 'Paper', quantity: 2, price: 50, account: '6500' }],
    });
    t.equal(invoice.status, 201, JSON.stringify(invoice.body));
    t.equal((await s.api('GET', `/arap/invoice/vendor/${invoice.body.id}`)).body.paymentReference, QRR);
    const badInvoice = await s.api('POST', '/arap/invoice/vendor', {
      vendor_id: vendorId,
      invDate: '2024-03-15',
      vc_bank_id: qrBank.body.id,
      items: [{ description: 'Paper', quantity: 2, price: 50, account: '6500' }],
    });
    t.equal(badInvoice.status, 400);
    t.equal(badInvoice.body.error.field, '/paymentReference');
  },
);
