import { Money, toJsonNumber, type Vc } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import {
  compact,
  listDocumentRows,
  listRowHeader,
  readDocument,
  type ListFilter,
  type ReadOptions,
  type TransactionRead,
  paymentStatus,
  countReminders,
  listDocumentMessages,
  REMINDER_COUNT_SQL,
} from '../arap/index.ts';

/** The read shapes of invoices: a transaction's read shape with items instead of lines, and list rows. */

interface ItemRow {
  service_id: number | null;
  partnumber: string | null;
  description: string | null;
  quantity: string;
  unit: string | null;
  price: string;
  discount: string;
  accno: string;
  tax_accno: string | null;
  tax_rate: string | null;
  amount: string;
  tax_amount: string;
  dimensions: Record<string, string> | null;
}

interface InvoiceColumns {
  vc: Vc;
  amount: string;
  paid: string;
  notes: string | null;
  terms: number | null;
  shippingpoint: string | null;
  ord_number: string | null;
  po_number: string | null;
  qr_reference: string | null;
  type: string;
  credit_of_id: number | null;
  reason: string | null;
  recurring_id: number | null;
  /** the reminders queued for the invoice (mail module) */
  reminder_count: number;
}

/** The fields every invoice read carries besides a transaction's (one invoice and list rows). */
function invoiceFields(row: InvoiceColumns) {
  const gross = new Money(row.amount);
  return {
    kind: 'invoice',
    type: row.type === 'credit_note' ? 'credit_note' : 'invoice',
    ...compact({
      credit_of: row.credit_of_id === null ? null : Number(row.credit_of_id),
      reason: row.reason,
      recurring_id: row.recurring_id === null ? null : Number(row.recurring_id),
      notes: row.notes,
      terms: row.terms,
      shippingpoint: row.shippingpoint,
      ordNumber: row.ord_number,
      poNumber: row.po_number,
    }),
    paid: toJsonNumber(row.paid),
    open: toJsonNumber(gross.minus(row.paid)),
    payment_status: paymentStatus(gross, row.paid),
    // the reminders the mail module queued (POST …/reminder), 0–3
    reminder_level: Number(row.reminder_count),
    ...(row.vc === 'customer' ? { qr_reference: row.qr_reference } : {}),
    // the e-mail module lists an invoice's messages here
    emails: [],
  };
}

export async function readInvoice(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  opts: ReadOptions,
): Promise<TransactionRead | undefined> {
  // a credit note reads like the invoice it credits (items, amounts negative)
  const doc =
    (await readDocument(tx, companyId, vc, id, opts, 'invoice')) ??
    (await readDocument(tx, companyId, vc, id, opts, 'credit_note'));
  if (!doc) return undefined;
  const columns = await tx('arap_transactions')
    .where({ company_id: companyId, id })
    .first<Omit<InvoiceColumns, 'reminder_count'>>(
      'vc',
      'amount',
      'paid',
      'notes',
      'terms',
      'shippingpoint',
      'ord_number',
      'po_number',
      'qr_reference',
      'type',
      'credit_of_id',
      'reason',
      'recurring_id',
    );
  const header = { ...columns, reminder_count: await countReminders(tx, companyId, id) };
  const { rows: items } = await tx.raw<{ rows: ItemRow[] }>(
    `select i.service_id, i.partnumber, i.description, i.quantity::text, i.unit, i.price::text, i.discount::text,
            a.accno, ta.accno as tax_accno, l.tax_rate::text, l.amount::text, l.tax_amount::text, l.dimensions
       from invoice_items i
       join arap_lines l on l.company_id = i.company_id and l.transaction_id = i.transaction_id
        and l.position = i.position
       join accounts a on a.company_id = l.company_id and a.id = l.account_id
       left join accounts ta on ta.company_id = l.company_id and ta.id = l.tax_account_id
      where i.company_id = ? and i.transaction_id = ? order by i.position`,
    [companyId, id],
  );
  const { lines: _lines, ...rest } = doc;
  return {
    ...rest,
    ...invoiceFields(header),
    emails: await listDocumentMessages(tx, companyId, id),
    items: items.map((i) =>
      compact({
        service_id: i.service_id === null ? null : Number(i.service_id),
        partnumber: i.partnumber,
        description: i.description,
        quantity: toJsonNumber(i.quantity),
        unit: i.unit,
        price: toJsonNumber(i.price),
        discount: toJsonNumber(i.discount),
        account: i.accno,
        taxAccount: i.tax_accno,
        taxRate: i.tax_rate === null ? null : toJsonNumber(i.tax_rate),
        amount: toJsonNumber(i.amount),
        tax: toJsonNumber(i.tax_amount),
        dimensions: i.dimensions ?? undefined,
      }),
    ),
  };
}

/** The filters of transaction lists, plus what only invoices have (payment status, overdue). */
export type InvoiceListFilter = ListFilter & { payment_status?: 'open' | 'partial' | 'paid'; overdue?: boolean };

const INVOICE_ORDER = { inv_date: 't.inv_date', due_date: 't.due_date', id: 't.id' };

/** SQL of payment_status, as rules.paymentStatus computes it. */
const PAYMENT_STATUS_SQL = `case when t.paid = 0 then (case when t.amount = 0 then 'paid' else 'open' end)
  when abs(t.paid) >= abs(t.amount) then 'paid' else 'partial' end`;
const OVERDUE_SQL = `(t.status = 'posted' and t.due_date < ?::date and abs(t.paid) < abs(t.amount))`;

export async function listInvoices(
  tx: Tx,
  companyId: number,
  vc: Vc,
  f: InvoiceListFilter,
  today: string,
): Promise<ListPage<Record<string, unknown>>> {
  const { rows, total } = await listDocumentRows<InvoiceColumns>(tx, companyId, vc, 'invoice', f, INVOICE_ORDER, {
    narrow: (q) => {
      if (f.payment_status !== undefined) q.whereRaw(`${PAYMENT_STATUS_SQL} = ?`, [f.payment_status]);
      if (f.overdue !== undefined) q.whereRaw(f.overdue ? OVERDUE_SQL : `not ${OVERDUE_SQL}`, [today]);
    },
    columns: [tx.raw(`${REMINDER_COUNT_SQL} as reminder_count`)],
  });
  const page = rows.map((r) => ({
    ...listRowHeader(vc, r),
    ...compact({ vc, reversalOf: r.reversal_of_id, reversedBy: r.reversed_by_id }),
    ...invoiceFields(r),
  }));
  return { rows: page, total };
}

/** The number of a document of the company (a credit note prints its invoice's). */
export async function documentNumberOf(tx: Tx, companyId: number, id: number): Promise<string | null> {
  const row = await tx('arap_transactions').where({ company_id: companyId, id }).first('inv_number');
  return row?.inv_number ?? null;
}

/** What credit notes of invoice `invoiceId` other than `exceptId` still have open (≤ 0, document currency). */
export async function openCredits(tx: Tx, companyId: number, invoiceId: number, exceptId: number): Promise<string> {
  const row = await tx('arap_transactions')
    .where({ company_id: companyId, credit_of_id: invoiceId, status: 'posted' })
    .whereNot({ id: exceptId })
    .first(tx.raw('coalesce(sum(amount - paid), 0)::text as open'));
  return String((row as { open?: unknown } | undefined)?.open ?? '0');
}
