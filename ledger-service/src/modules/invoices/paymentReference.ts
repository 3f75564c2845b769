import { paymentReference } from '@ledger/shared/references';
import { nextNumber } from '../../db/sequences.ts';
import { getInvoiceBankAccount } from '../company/store.ts';
import type { WriteContext } from '../transactions/service.ts';

/**
 * The hook where a posted customer invoice gets its payment-slip reference (`qr_reference`:
 * a QR reference or an ISO 11649 creditor reference, unique per company, never changed once
 * set). Called after every posting of an invoice (create posted, update posting a draft,
 * approve), inside the request's transaction. The number comes from the company's
 * `payment_reference` sequence; the company's invoice bank account decides the kind: a
 * QR-IBAN takes a QR reference, any other account (or none yet) a creditor reference.
 */
export async function assignPaymentReference(c: Pick<WriteContext, 'tx' | 'company' | 'vc'>, id: number): Promise<void> {
  if (c.vc !== 'customer') return;
  const row = (await c.tx('arap_transactions').where({ id }).forUpdate().first('qr_reference')) as { qr_reference: string | null } | undefined;
  if (!row || row.qr_reference !== null) return;
  const account = await getInvoiceBankAccount(c.tx, c.company.id);
  const number = (await nextNumber(c.tx, c.company, 'payment_reference')).replace(/\D/g, '');
  const { reference } = paymentReference(number, { qrIban: Boolean(account?.qr_iban) });
  await c.tx('arap_transactions').where({ id }).update({ qr_reference: reference });
}
