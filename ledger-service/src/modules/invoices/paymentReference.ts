import type { WriteContext } from '../transactions/service.ts';

/**
 * The hook where a posted customer invoice gets its payment-slip reference (`qr_reference`:
 * a QR reference or an ISO 11649 creditor reference, unique per company, never changed once
 * set). Called after every posting of an invoice (create posted, update posting a draft,
 * approve), inside the request's transaction. The PDF/QR-bill part assigns the reference
 * here; until then invoices keep `qr_reference: null`.
 */
export async function assignPaymentReference(c: Pick<WriteContext, 'tx' | 'company' | 'vc'>, id: number): Promise<void> {
  void c;
  void id;
}
