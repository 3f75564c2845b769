import t from 'tap';
import {
  compactReference,
  creditorReference,
  isCreditorReference,
  isQrIban,
  isQrReference,
  paymentReference,
  qrReference,
  referenceTypeOf,
} from '@ledger/shared/references';

// Examples from the Swiss Implementation Guidelines QR-bill (v2.3, appendix examples) and ISO 11649.
const IG_QR_REFERENCE = '210000000003139471430009017'; // "21 00000 00003 13947 14300 09017"
const IG_CREDITOR_REFERENCE = 'RF18539007547034'; // "RF18 5390 0754 7034"
const ISO_CREDITOR_REFERENCE = 'RF45G72UUR'; // ISO 11649 annex example
const IG_QR_IBAN = 'CH44 3199 9123 0008 8901 2';
const IG_IBAN = 'CH58 0079 1123 0008 8901 2';

t.test('QR reference: 26 digits right-aligned, mod-10 recursive check digit', async (t) => {
  t.equal(qrReference('21000000000313947143000901'), IG_QR_REFERENCE, 'the guidelines example');
  t.equal(qrReference(123), '000000000000000000000001236');
  t.equal(qrReference(1n), '000000000000000000000000011');
  t.equal(qrReference('000123'), qrReference(123), 'leading zeros do not change the reference');
  t.equal(qrReference(0), '000000000000000000000000000');
  t.equal(qrReference('9'.repeat(26)).length, 27);
  t.throws(() => qrReference('1'.repeat(27)), RangeError, 'more than 26 digits');
  t.throws(() => qrReference(-1), RangeError, 'negative');
  t.throws(() => qrReference('12a'), RangeError, 'not digits');
  t.throws(() => qrReference(1.5), RangeError, 'not an integer');
});

t.test('QR reference validation', async (t) => {
  t.ok(isQrReference(IG_QR_REFERENCE));
  t.ok(isQrReference('21 00000 00003 13947 14300 09017'), 'printed form with spaces');
  t.notOk(isQrReference('210000000003139471430009018'), 'wrong check digit');
  t.notOk(isQrReference('21000000000313947143000901'), '26 digits');
  t.notOk(isQrReference('2100000000031394714300090170'), '28 digits');
  t.notOk(isQrReference('21000000000313947143000901A'), 'a letter');
  t.notOk(isQrReference(''), 'empty');
  for (const n of [1, 42, 99_999, 1_234_567_890]) t.ok(isQrReference(qrReference(n)), `built from ${n} validates`);
  // every single-digit change of a valid reference is detected
  let detected = 0;
  for (let i = 0; i < 27; i++) {
    for (let d = 0; d <= 9; d++) {
      const changed = IG_QR_REFERENCE.slice(0, i) + String(d) + IG_QR_REFERENCE.slice(i + 1);
      if (changed !== IG_QR_REFERENCE && !isQrReference(changed)) detected++;
    }
  }
  t.equal(detected, 27 * 9, 'the check digit catches every single-digit error');
});

t.test('creditor reference (ISO 11649): RF + mod-97 check digits', async (t) => {
  t.equal(creditorReference('539007547034'), IG_CREDITOR_REFERENCE, 'the guidelines example');
  t.equal(creditorReference('G72UUR'), ISO_CREDITOR_REFERENCE, 'the ISO 11649 example');
  t.equal(creditorReference('g72u ur'), ISO_CREDITOR_REFERENCE, 'lower case and spaces are compacted');
  t.equal(creditorReference(123), 'RF78123');
  t.equal(creditorReference(539007547034n), IG_CREDITOR_REFERENCE);
  t.throws(() => creditorReference('1'.repeat(22)), RangeError, 'more than 21 characters');
  t.throws(() => creditorReference('AB-12'), RangeError, 'not alphanumeric');
  t.throws(() => creditorReference(''), RangeError, 'empty');
});

t.test('creditor reference validation', async (t) => {
  t.ok(isCreditorReference(IG_CREDITOR_REFERENCE));
  t.ok(isCreditorReference('RF18 5390 0754 7034'), 'printed form');
  t.ok(isCreditorReference('rf45g72uur'), 'lower case');
  t.notOk(isCreditorReference('RF19539007547034'), 'wrong check digits');
  t.notOk(isCreditorReference('RF18539007547035'), 'changed reference');
  t.notOk(isCreditorReference('XX18539007547034'), 'no RF');
  t.notOk(isCreditorReference('RF18'), 'no reference part');
  t.notOk(isCreditorReference(`RF${'1'.repeat(24)}`), 'too long');
  for (const n of [1, 42, 99_999, 1_234_567_890])
    t.ok(isCreditorReference(creditorReference(n)), `built from ${n} validates`);
});

t.test('QR-IBAN, payment reference by account, reference type', async (t) => {
  t.ok(isQrIban(IG_QR_IBAN), 'the guidelines QR-IBAN (IID 31999)');
  t.ok(isQrIban('CH4431999123000889012'));
  t.notOk(isQrIban(IG_IBAN), 'an ordinary IBAN (IID 00791)');
  t.notOk(isQrIban('CH4531999123000889012'), 'wrong IBAN check digits');
  t.notOk(isQrIban('DE89370400440532013000'), 'not CH/LI');

  t.same(paymentReference(123, { qrIban: true }), { type: 'QRR', reference: '000000000000000000000001236' });
  t.same(paymentReference(123, { qrIban: false }), { type: 'SCOR', reference: 'RF78123' });
  t.equal(referenceTypeOf(IG_QR_REFERENCE), 'QRR');
  t.equal(referenceTypeOf('RF18 5390 0754 7034'), 'SCOR');
  t.equal(referenceTypeOf('RF00123'), null);
  t.equal(compactReference(' rf18 5390\t0754 7034 '), IG_CREDITOR_REFERENCE);
});
