import type { ResponseOf, contracts } from '@ledger/shared';
import { Money, toJsonNumber } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import type { OpenDocument, StatementEntry } from './rules.ts';

/**
 * Bank transactions (table bank_transactions) and the candidates matching looks at. Runs inside the tenant transaction.
 */

export type BankTransactionRead = ResponseOf<typeof contracts.getBankTransaction>;

export interface NewBankTransaction extends StatementEntry {
  key: string;
  source: 'camt.053' | 'camt.054' | 'csv';
}

/** What an insert gives back for matching: the new rows only. */
export interface InsertedTransaction {
  id: number;
  date: string;
  amount: string;
  currency: string;
  reference: string | null;
  end_to_end_id: string | null;
  text: string | null;
  reversal: boolean;
}

// rows per INSERT: one JSON parameter each; small enough that one statement's rows and its
// answer stay a few hundred kB, large enough that 10,000 entries take about twenty round trips
const INSERT_BATCH = 500;

const INSERT_SQL = `
  insert into bank_transactions
    (company_id, bank_account_id, entry_key, date, value_date, amount, currency, counterparty, iban, reference,
      end_to_end_id, text, bank_reference, reversal, source)
  select ?, ?, x.entry_key, x.date, x.value_date, x.amount, x.currency, x.counterparty, x.iban, x.reference,
    x.end_to_end_id, x.text, x.bank_reference, x.reversal, x.source
  from jsonb_to_recordset(?::jsonb) as x(
    entry_key text, date date, value_date date, amount numeric, currency text, counterparty text, iban text,
      reference text,
    end_to_end_id text, text text, bank_reference text, reversal boolean, source text)
  on conflict (company_id, bank_account_id, entry_key) do nothing
  returning id, date::text as date, amount::text as amount, currency, reference, end_to_end_id, text, reversal`;

/**
 * Inserts the transactions of one bank account, a batch of rows per statement (one JSON
 * parameter unpacked by jsonb_to_recordset: no statement with thousands of bind parameters
 * to build and parse). Those whose key the account has already (an earlier import, or a
 * concurrent one committing first) are skipped by the unique index, never written twice.
 * Returns the rows actually inserted, in the order of `rows`.
 */
export async function insertTransactions(
  tx: Tx,
  companyId: number,
  bankAccountId: number,
  rows: readonly NewBankTransaction[],
): Promise<InsertedTransaction[]> {
  const inserted: InsertedTransaction[] = [];
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const batch = JSON.stringify(
      rows.slice(i, i + INSERT_BATCH).map((r) => ({
        entry_key: r.key,
        date: r.date,
        value_date: r.valueDate,
        // as text: the exact decimal, never a JSON float
        amount: r.amount.toFixed(),
        currency: r.currency,
        counterparty: r.counterparty,
        iban: r.iban,
        reference: r.reference,
        end_to_end_id: r.endToEndId,
        text: r.text,
        bank_reference: r.bankReference,
        reversal: r.reversal,
        source: r.source,
      })),
    );
    const result = await tx.raw<{ rows: (InsertedTransaction & { id: number | string })[] }>(INSERT_SQL, [
      companyId,
      bankAccountId,
      batch,
    ]);
    const got = result.rows.map((r) => ({ ...r, id: Number(r.id), currency: r.currency.trim() }));
    // ids follow the rows' order (one sequence, rows inserted in array order); RETURNING promises no order
    got.sort((a, b) => a.id - b.id);
    for (const r of got) inserted.push(r);
  }
  return inserted;
}

interface DocumentRow {
  id: number | string;
  vc: 'vendor' | 'customer';
  inv_number: string;
  qr_reference: string | null;
  currency: string;
  amount: string;
  paid: string;
}

/**
 * Open posted customer documents by their qr_reference or number, and vendor documents by payment-file end-to-end id.
 */
export async function matchCandidates(
  tx: Tx,
  q: { references: string[]; numbers: string[]; endToEndIds: string[] },
): Promise<{ documents: OpenDocument[]; payments: { endToEndId: string; amount: string; documentId: number }[] }> {
  const open = (query: ReturnType<Tx>) =>
    query.where('t.status', 'posted').whereNull('t.reversal_of_id').whereRaw('t.amount - t.paid > 0');
  const documents: OpenDocument[] = [];
  const toDocument = (r: DocumentRow): OpenDocument => ({
    id: Number(r.id),
    vc: r.vc,
    invNumber: r.inv_number,
    qrReference: r.qr_reference,
    currency: r.currency.trim(),
    open: new Money(r.amount).minus(r.paid),
  });
  const columns = [
    't.id',
    't.vc',
    't.inv_number',
    't.qr_reference',
    't.currency',
    tx.raw('t.amount::text as amount'),
    tx.raw('t.paid::text as paid'),
  ];
  if (q.references.length > 0 || q.numbers.length > 0) {
    const rows = await open(tx('arap_transactions as t').where('t.vc', 'customer'))
      .where((w) => w.whereIn('t.qr_reference', q.references).orWhereIn('t.inv_number', q.numbers))
      .select(columns);
    documents.push(...rows.map(toDocument));
  }
  let payments: { endToEndId: string; amount: string; documentId: number }[] = [];
  if (q.endToEndIds.length > 0) {
    const rows = (await open(
      tx('payment_file_items as i').join('arap_transactions as t', 't.id', 'i.document_id').where('t.vc', 'vendor'),
    )
      .whereIn('i.end_to_end_id', q.endToEndIds)
      .select([...columns, 'i.end_to_end_id', tx.raw('i.amount::text as file_amount')])) as (DocumentRow & {
      end_to_end_id: string;
      file_amount: string;
    })[];
    payments = rows.map((r) => ({ endToEndId: r.end_to_end_id, amount: r.file_amount, documentId: Number(r.id) }));
    documents.push(...rows.map(toDocument));
  }
  return { documents, payments };
}

export async function markBooked(
  tx: Tx,
  id: number,
  status: 'matched' | 'booked',
  by: { documentId: number; paymentId: number } | { accountId: number; journalId: number },
): Promise<void> {
  await tx('bank_transactions')
    .where({ id })
    .update({
      status,
      ...('documentId' in by
        ? { document_id: by.documentId, payment_id: by.paymentId }
        : { booked_account_id: by.accountId, journal_id: by.journalId }),
      booked_at: tx.fn.now(),
    });
}

/** Marks transactions booked by matching as `matched`, naming the document and payment, in one statement. */
export async function markMatched(
  tx: Tx,
  rows: readonly { id: number; documentId: number; paymentId: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.raw(
    `
    update bank_transactions b set status = 'matched', document_id = x.document_id, payment_id = x.payment_id,
      booked_at = now()
    from jsonb_to_recordset(?::jsonb) as x(id bigint, document_id bigint, payment_id bigint)
    where b.id = x.id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, document_id: r.documentId, payment_id: r.paymentId })))],
  );
}

export interface LockedTransaction {
  id: number;
  bank_account_id: number;
  date: string;
  amount: string;
  currency: string;
  text: string | null;
  counterparty: string | null;
  status: string;
}

export async function lockTransaction(tx: Tx, id: number): Promise<LockedTransaction | undefined> {
  const row = await tx('bank_transactions')
    .where({ id })
    .forUpdate()
    .first<LockedTransaction | undefined>(
      'id',
      'bank_account_id',
      tx.raw('date::text as date'),
      tx.raw('amount::text as amount'),
      'currency',
      'text',
      'counterparty',
      'status',
    );
  return (
    row && { ...row, id: Number(row.id), bank_account_id: Number(row.bank_account_id), currency: row.currency.trim() }
  );
}

// --- reads ---------------------------------------------------------------------------------

interface ReadRow {
  id: number | string;
  bank_account_id: number | string;
  date: string;
  value_date: string | null;
  amount: string;
  currency: string;
  counterparty: string | null;
  iban: string | null;
  reference: string | null;
  end_to_end_id: string | null;
  text: string | null;
  bank_reference: string | null;
  reversal: boolean;
  source: 'camt.053' | 'camt.054' | 'csv';
  status: 'unmatched' | 'matched' | 'booked';
  document_id: number | string | null;
  document_vc: 'vendor' | 'customer' | null;
  document_number: string | null;
  payment_id: number | string | null;
  accno: string | null;
  journal_id: number | string | null;
}

const READ_COLUMNS = [
  'b.id',
  'b.bank_account_id',
  'b.date',
  'b.value_date',
  'b.amount',
  'b.currency',
  'b.counterparty',
  'b.iban',
  'b.reference',
  'b.end_to_end_id',
  'b.text',
  'b.bank_reference',
  'b.reversal',
  'b.source',
  'b.status',
  'b.document_id',
  't.vc as document_vc',
  't.inv_number as document_number',
  'b.payment_id',
  'a.accno',
  'b.journal_id',
];

function readQuery(tx: Tx) {
  return tx('bank_transactions as b')
    .leftJoin('arap_transactions as t', 't.id', 'b.document_id')
    .leftJoin('accounts as a', 'a.id', 'b.booked_account_id');
}

const idOrNull = (v: number | string | null) => (v === null ? null : Number(v));

function toReadShape(r: ReadRow): BankTransactionRead {
  return {
    id: Number(r.id),
    account_id: Number(r.bank_account_id),
    date: r.date,
    value_date: r.value_date,
    amount: toJsonNumber(r.amount),
    currency: r.currency.trim(),
    counterparty: r.counterparty,
    iban: r.iban,
    reference: r.reference,
    end_to_end_id: r.end_to_end_id,
    text: r.text,
    bank_reference: r.bank_reference,
    reversal: r.reversal,
    source: r.source,
    status: r.status,
    document:
      r.document_id === null ? null : { id: Number(r.document_id), vc: r.document_vc!, number: r.document_number! },
    payment_id: idOrNull(r.payment_id),
    account: r.accno,
    journal_id: idOrNull(r.journal_id),
  };
}

export async function findTransaction(tx: Tx, id: number): Promise<BankTransactionRead | undefined> {
  const row = await readQuery(tx).where('b.id', id).first<ReadRow | undefined>(READ_COLUMNS);
  return row && toReadShape(row);
}

export interface TransactionFilter {
  account?: number;
  from?: string;
  to?: string;
  status?: string;
  counterparty?: string;
  amount?: number;
  sort: string;
  limit: number;
  offset: number;
}

const ORDER = { date: 'b.date', id: 'b.id' };

export async function listTransactions(tx: Tx, f: TransactionFilter): Promise<ListPage<BankTransactionRead>> {
  const q = readQuery(tx);
  if (f.account !== undefined) q.where('b.bank_account_id', f.account);
  if (f.from !== undefined) q.where('b.date', '>=', f.from);
  if (f.to !== undefined) q.where('b.date', '<=', f.to);
  if (f.status !== undefined) q.where('b.status', f.status);
  // a substring, not a pattern: % and _ the caller sends are matched literally
  if (f.counterparty !== undefined)
    q.whereRaw(`strpos(lower(coalesce(b.counterparty, '')), lower(?)) > 0`, [f.counterparty]);
  // the JSON number as its shortest decimal text: compared exactly as NUMERIC, never as a float
  if (f.amount !== undefined) q.whereRaw('b.amount = ?::numeric', [new Money(f.amount).toFixed()]);
  const counted = await q.clone().clearSelect().count({ n: '*' }).first();
  const rows = await q
    .orderByRaw(orderBySql(f.sort, ORDER, 'b.id'))
    .limit(f.limit)
    .offset(f.offset)
    .select<ReadRow[]>(READ_COLUMNS);
  return { rows: rows.map(toReadShape), total: Number(counted?.n ?? 0) };
}
