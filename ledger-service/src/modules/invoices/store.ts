import type { Knex } from 'knex';
import type { CustomerInvoiceInput, Vc } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { ChildRows } from '../arap/index.ts';
import type { FilledItem } from './rules.ts';

/** Rows of invoice_items and the invoice columns of arap_transactions. Runs inside the caller's transaction. */

/** The invoice's own header columns (customer invoices; null on the vendor side). */
export function invoiceColumns(
  fields: Pick<CustomerInvoiceInput, 'notes' | 'terms' | 'shippingpoint' | 'ordNumber' | 'poNumber'>,
): Record<string, Knex.Value> {
  return {
    notes: fields.notes ?? null,
    terms: fields.terms ?? null,
    shippingpoint: fields.shippingpoint ?? null,
    ord_number: fields.ordNumber ?? null,
    po_number: fields.poNumber ?? null,
  };
}

/** The invoice's items as child rows of its document (positions 1…n, the positions of its lines). */
export function itemRows(items: readonly FilledItem[]): ChildRows {
  return {
    table: 'invoice_items',
    columns: {
      position: 'int',
      service_id: 'bigint',
      partnumber: 'text',
      description: 'text',
      quantity: 'numeric',
      unit: 'text',
      price: 'numeric',
      discount: 'numeric',
      dimensions: 'jsonb',
    },
    rows: items.map((item, i) => ({
      position: i + 1,
      service_id: item.serviceId,
      partnumber: item.partnumber,
      description: item.description,
      quantity: item.quantity.toString(),
      unit: item.unit,
      price: item.price.toString(),
      discount: item.discount.toString(),
      dimensions: item.dimensions && Object.keys(item.dimensions).length > 0 ? item.dimensions : null,
    })),
  };
}

/** A reversal of an invoice: the original's invoice fields, and its items with the quantity negated. */
export async function copyToReversal(tx: Tx, companyId: number, fromId: number, toId: number): Promise<void> {
  await tx.raw(
    `update arap_transactions r set notes = o.notes, terms = o.terms, shippingpoint = o.shippingpoint,
       ord_number = o.ord_number, po_number = o.po_number
       from arap_transactions o
      where o.company_id = ? and o.id = ? and r.company_id = o.company_id and r.id = ?`,
    [companyId, fromId, toId],
  );
  await tx.raw(
    `insert into invoice_items (company_id, transaction_id, position, service_id, partnumber, description, quantity,
       unit, price, discount, dimensions)
     select company_id, ?, position, service_id, partnumber, description, -quantity, unit, price, discount, dimensions
       from invoice_items where company_id = ? and transaction_id = ?`,
    [toId, companyId, fromId],
  );
}

/** The payment terms (days) of the party a write names; undefined when it names none or the party has none. */
export async function partyTerms(
  tx: Tx,
  companyId: number,
  vc: Vc,
  ref: { id: number | undefined; number: string | undefined },
): Promise<number | undefined> {
  if (ref.id === undefined && ref.number === undefined) return undefined;
  const q = tx('parties').where({ company_id: companyId, vc });
  if (ref.id !== undefined) q.where({ id: ref.id });
  if (ref.number !== undefined) q.where({ number: ref.number });
  const row = await q.first('terms');
  return row?.terms ?? undefined;
}

/**
 * One round trip for a new payment reference: the next number of `payment_reference_seq`
 * and whether the company's invoice bank account has a QR-IBAN (which decides the kind).
 */
export async function drawReferenceNumber(tx: Tx, companyId: number): Promise<{ number: string; qrIban: boolean }> {
  const { rows } = await tx.raw<{ rows: { n: string; qr_iban: string | null }[] }>(
    `select nextval('payment_reference_seq')::text as n,
            (select b.qr_iban from companies c
               join bank_accounts b on b.company_id = c.id and b.id = c.invoice_bank_account_id
              where c.id = ?) as qr_iban`,
    [companyId],
  );
  return { number: rows[0]!.n, qrIban: Boolean(rows[0]!.qr_iban) };
}

/**
 * The invoice's payment reference under a row lock (`undefined`: no such invoice), so two
 * requests posting it cannot both give it one.
 */
export async function lockedPaymentReference(
  tx: Tx,
  companyId: number,
  id: number,
): Promise<{ qr_reference: string | null } | undefined> {
  return tx('arap_transactions').where({ company_id: companyId, id }).forUpdate().first('qr_reference');
}

export async function setPaymentReference(tx: Tx, companyId: number, id: number, reference: string): Promise<void> {
  await tx('arap_transactions').where({ company_id: companyId, id }).update({ qr_reference: reference });
}
