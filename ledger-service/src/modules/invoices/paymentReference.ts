import { paymentReference } from '@ledger/shared/references';
import type { Tx } from '../../db/knex.ts';
import { drawReferenceNumber, lockedPaymentReference, setPaymentReference } from './store.ts';
import type { WriteContext } from '../arap/index.ts';

/**
 * A posted customer invoice's payment-slip reference (`qr_reference`: a QR reference or an
 * ISO 11649 creditor reference, unique, never changed once set). The number comes from the
 * `payment_reference_seq` sequence (migration 015: no row lock, so it is drawn before the
 * invoice is numbered and adds no time to the numbering lock); the company's invoice bank
 * account decides the kind: a QR-IBAN takes a QR reference, any other account (or none yet)
 * a creditor reference.
 */
export async function newPaymentReference(tx: Tx, companyId: number): Promise<string> {
  const { number, qrIban } = await drawReferenceNumber(tx, companyId);
  return paymentReference(number, { qrIban }).reference;
}

/**
 * The hook for invoices posted after creation (update posting a draft, approve): gives the
 * invoice its reference unless it has one. Inside the request's transaction.
 */
export async function assignPaymentReference(
  c: Pick<WriteContext, 'tx' | 'company' | 'vc'>,
  id: number,
): Promise<void> {
  if (c.vc !== 'customer') return;
  const row = await lockedPaymentReference(c.tx, c.company.id, id);
  if (!row || row.qr_reference !== null) return;
  await setPaymentReference(c.tx, c.company.id, id, await newPaymentReference(c.tx, c.company.id));
}
