import type { ResponseOf, contracts } from '@ledger/shared';
import { toJsonNumber } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';

/** Payment files and their items (tables payment_files, payment_file_items). Runs inside the tenant transaction. */

export interface PayableDocument {
  id: number;
  inv_number: string;
  status: string;
  reversal_of_id: number | null;
  currency: string;
  amount: string;
  paid: string;
  vc_bank_id: number | null;
  payment_reference: string | null;
  iban: string | null;
  bic: string | null;
  account_name: string | null;
  party_name: string;
}

const DOCUMENT_COLUMNS = [
  't.id',
  't.inv_number',
  't.status',
  't.reversal_of_id',
  't.currency',
  't.amount',
  't.paid',
  't.vc_bank_id',
  't.payment_reference',
  'b.iban',
  'b.bic',
  'b.name as account_name',
  'p.name as party_name',
];

function documents(tx: Tx, companyId: number) {
  return tx('arap_transactions as t')
    .join('parties as p', (j) => j.on('p.id', 't.party_id').andOn('p.company_id', 't.company_id'))
    .leftJoin('vendor_bank_accounts as b', (j) => j.on('b.id', 't.vc_bank_id').andOn('b.company_id', 't.company_id'))
    .where({ 't.company_id': companyId, 't.vc': 'vendor' });
}

const normalise = (r: PayableDocument): PayableDocument => ({ ...r, id: Number(r.id), currency: r.currency.trim() });

/**
 * Locks the named vendor documents (in id order, so two requests cannot deadlock) and reads
 * them with their payee bank account. Locking first means a concurrent file creation for the
 * same documents waits here and then sees them in a file.
 */
export async function lockDocuments(tx: Tx, companyId: number, ids: readonly number[]): Promise<PayableDocument[]> {
  const rows = await documents(tx, companyId)
    .whereIn('t.id', ids)
    .orderBy('t.id')
    .forUpdate('t')
    .select<PayableDocument[]>(DOCUMENT_COLUMNS);
  return rows.map(normalise);
}

/**
 * The documents due for the next file: posted, open, flagged payment_file with a bank account, in no file yet; locked.
 */
export async function lockDueDocuments(tx: Tx, companyId: number): Promise<PayableDocument[]> {
  const rows = await documents(tx, companyId)
    .where({ 't.status': 'posted', 't.payment_file': true })
    .whereNull('t.reversal_of_id')
    .whereNotNull('t.vc_bank_id')
    .whereRaw('t.amount - t.paid > 0')
    .whereNotExists((q) =>
      q
        .select(tx.raw('1'))
        .from('payment_file_items as i')
        .whereRaw('i.company_id = t.company_id and i.document_id = t.id'),
    )
    .orderBy('t.id')
    .forUpdate('t')
    .select<PayableDocument[]>(DOCUMENT_COLUMNS);
  return rows.map(normalise);
}

/** A payment file's row in the list, with its payments. */
interface FileListRow {
  id: number | string;
  bank_account_id: number | string;
  execution_date: string;
  message_id: string;
  count: number;
  total: string;
  created_at: Date;
  payments: { document_id: number; number: string; end_to_end_id: string; amount: string; currency: string }[];
}

/** Which of these documents are in a payment file already (read after the locks: a fresh snapshot). */
export async function documentsInFiles(
  tx: Tx,
  companyId: number,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const rows = await tx('payment_file_items')
    .where({ company_id: companyId })
    .whereIn('document_id', ids)
    .select('document_id', 'payment_file_id');
  return new Map(rows.map((r) => [Number(r.document_id), Number(r.payment_file_id)]));
}

export async function insertFile(
  tx: Tx,
  companyId: number,
  f: { bankAccountId: number; executionDate: string; count: number; total: string; createdBy: number | null },
): Promise<number> {
  // the message id is the file's id, known only after the insert: a placeholder first, set with the XML
  const [row] = await tx('payment_files')
    .insert({
      company_id: companyId,
      bank_account_id: f.bankAccountId,
      execution_date: f.executionDate,
      message_id: `pending-${process.hrtime.bigint()}`,
      count: f.count,
      total: f.total,
      xml: '',
      created_by: f.createdBy,
    })
    .returning('id');
  return Number(row!.id);
}

export async function insertItems(
  tx: Tx,
  companyId: number,
  fileId: number,
  items: readonly { documentId: number; endToEndId: string; amount: string; currency: string }[],
): Promise<void> {
  for (let i = 0; i < items.length; i += 1000) {
    await tx('payment_file_items').insert(
      items.slice(i, i + 1000).map((it) => ({
        company_id: companyId,
        payment_file_id: fileId,
        document_id: it.documentId,
        end_to_end_id: it.endToEndId,
        amount: it.amount,
        currency: it.currency,
      })),
    );
  }
}

export async function setFileXml(tx: Tx, companyId: number, id: number, messageId: string, xml: string): Promise<void> {
  await tx('payment_files').where({ company_id: companyId, id }).update({ message_id: messageId, xml });
}

export async function readFileXml(
  tx: Tx,
  companyId: number,
  id: number,
): Promise<{ message_id: string; xml: string } | undefined> {
  return await tx('payment_files').where({ company_id: companyId, id }).first('message_id', 'xml');
}

export type PaymentFileRead = ResponseOf<typeof contracts.listPaymentFiles>[number];

const ORDER = { id: 'f.id', execution_date: 'f.execution_date' };

export async function listFiles(
  tx: Tx,
  companyId: number,
  q: { bank_account_id?: number; sort: string; limit: number; offset: number },
): Promise<ListPage<PaymentFileRead>> {
  const base = tx('payment_files as f').where('f.company_id', companyId);
  if (q.bank_account_id !== undefined) base.where('f.bank_account_id', q.bank_account_id);
  const counted = await base.clone().count({ n: '*' }).first();
  const rows = await base
    .orderByRaw(orderBySql(q.sort, ORDER, 'f.id'))
    .limit(q.limit)
    .offset(q.offset)
    .select<FileListRow[]>(
      'f.id',
      'f.bank_account_id',
      'f.execution_date',
      'f.message_id',
      'f.count',
      'f.total',
      'f.created_at',
      tx.raw(`(select coalesce(json_agg(json_build_object('document_id', i.document_id, 'number', t.inv_number,
        'end_to_end_id', i.end_to_end_id,
         'amount', i.amount::text, 'currency', trim(i.currency)) order by i.id), '[]')
         from payment_file_items i join arap_transactions t on t.company_id = i.company_id and t.id = i.document_id
           where i.company_id = f.company_id and i.payment_file_id = f.id) as payments`),
    );
  return {
    total: Number(counted?.n ?? 0),
    rows: rows.map((r) => ({
      id: Number(r.id),
      bank_account_id: Number(r.bank_account_id),
      execution_date: r.execution_date,
      message_id: r.message_id,
      count: r.count,
      total: toJsonNumber(r.total),
      created_at: new Date(r.created_at).toISOString(),
      payments: r.payments.map((p) => ({ ...p, amount: toJsonNumber(p.amount) })),
    })),
  };
}
