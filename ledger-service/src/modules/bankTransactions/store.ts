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
  counterparty: string | null;
  iban: string | null;
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
  returning id, date::text as date, amount::text as amount, currency, reference, end_to_end_id, text, reversal,
    counterparty, iban`;

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
  companyId: number,
  q: { references: string[]; numbers: string[]; endToEndIds: string[] },
): Promise<{ documents: OpenDocument[]; payments: { endToEndId: string; amount: string; documentId: number }[] }> {
  const open = (query: ReturnType<Tx>) =>
    query
      .where('t.company_id', companyId)
      .where('t.status', 'posted')
      .whereNull('t.reversal_of_id')
      .whereRaw('t.amount - t.paid > 0');
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
      tx('payment_file_items as i')
        .join('arap_transactions as t', 't.id', 'i.document_id')
        .where({ 'i.company_id': companyId, 't.vc': 'vendor' }),
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
  companyId: number,
  id: number,
  status: 'matched' | 'booked',
  by: { documentId: number; paymentId: number } | { accountId: number; journalId: number },
): Promise<void> {
  await tx('bank_transactions')
    .where({ company_id: companyId, id })
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
  companyId: number,
  rows: readonly { id: number; documentId: number; paymentId: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.raw(
    `
    update bank_transactions b set status = 'matched', document_id = x.document_id, payment_id = x.payment_id,
      booked_at = now()
    from jsonb_to_recordset(?::jsonb) as x(id bigint, document_id bigint, payment_id bigint)
    where b.company_id = ? and b.id = x.id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, document_id: r.documentId, payment_id: r.paymentId }))), companyId],
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

export async function lockTransaction(tx: Tx, companyId: number, id: number): Promise<LockedTransaction | undefined> {
  const row = await tx('bank_transactions')
    .where({ company_id: companyId, id })
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
  rule_id: number | string | null;
  reconciled_on: string | null;
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
  'b.rule_id',
  'b.reconciled_on',
];

function readQuery(tx: Tx, companyId: number) {
  return tx('bank_transactions as b')
    .leftJoin('arap_transactions as t', function sameCompany() {
      this.on('t.id', '=', 'b.document_id').andOn('t.company_id', '=', 'b.company_id');
    })
    .leftJoin('accounts as a', function sameCompany() {
      this.on('a.id', '=', 'b.booked_account_id').andOn('a.company_id', '=', 'b.company_id');
    })
    .where('b.company_id', companyId);
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
    rule_id: idOrNull(r.rule_id),
    reconciled_on: r.reconciled_on,
    // filled in by the service for unmatched lines (proposals.ts)
    proposals: [],
  };
}

export async function findTransaction(tx: Tx, companyId: number, id: number): Promise<BankTransactionRead | undefined> {
  const row = await readQuery(tx, companyId).where('b.id', id).first<ReadRow | undefined>(READ_COLUMNS);
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

export async function listTransactions(
  tx: Tx,
  companyId: number,
  f: TransactionFilter,
): Promise<ListPage<BankTransactionRead>> {
  const q = readQuery(tx, companyId);
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

// --- bank automation: rules, proposals, reconciliation -----------------------------------------

/** A bank line locked for booking, with what rules and proposals look at. */
export interface LockedLine {
  id: number;
  bank_account_id: number;
  date: string;
  amount: string;
  currency: string;
  counterparty: string | null;
  iban: string | null;
  reference: string | null;
  text: string | null;
  reversal: boolean;
  status: 'unmatched' | 'matched' | 'booked';
  booked_account: string | null;
  reconciled_on: string | null;
}

interface LineRow extends Omit<LockedLine, 'id' | 'bank_account_id'> {
  id: number | string;
  bank_account_id: number | string;
}

const LINE_COLUMNS = [
  'b.id',
  'b.bank_account_id',
  'b.date',
  'b.amount',
  'b.currency',
  'b.counterparty',
  'b.iban',
  'b.reference',
  'b.text',
  'b.reversal',
  'b.status',
  'a.accno as booked_account',
  'b.reconciled_on',
];

const toLine = (r: LineRow): LockedLine => ({
  ...r,
  id: Number(r.id),
  bank_account_id: Number(r.bank_account_id),
  currency: r.currency.trim(),
});

function lineQuery(tx: Tx, companyId: number) {
  return tx('bank_transactions as b')
    .leftJoin('accounts as a', (j) => j.on('a.id', 'b.booked_account_id').andOn('a.company_id', 'b.company_id'))
    .where('b.company_id', companyId);
}

/** One line, locked (FOR UPDATE of the bank line only) when `lock`. */
export async function findLine(tx: Tx, companyId: number, id: number, lock = false): Promise<LockedLine | undefined> {
  const q = lineQuery(tx, companyId).where('b.id', id);
  if (lock) q.forUpdate('b');
  const row = await q.first<LineRow | undefined>(LINE_COLUMNS);
  return row && toLine(row);
}

/** The unmatched lines (of one bank account, or all), oldest first, at most `limit`. */
export async function unmatchedLines(
  tx: Tx,
  companyId: number,
  f: { bankAccountId?: number; ids?: readonly number[]; limit: number },
): Promise<LockedLine[]> {
  const q = lineQuery(tx, companyId).where('b.status', 'unmatched');
  if (f.bankAccountId !== undefined) q.where('b.bank_account_id', f.bankAccountId);
  if (f.ids !== undefined) q.whereIn('b.id', f.ids);
  const rows = await q
    .orderBy([{ column: 'b.date' }, { column: 'b.id' }])
    .limit(f.limit)
    .select<LineRow[]>(LINE_COLUMNS);
  return rows.map(toLine);
}

/** What booked a line: a payment, a journal entry, or both (a settle with a difference), and the rule. */
export interface LineBooking {
  documentId?: number;
  paymentId?: number;
  accountId?: number;
  journalId?: number;
  ruleId?: number;
}

export async function markLineBooked(
  tx: Tx,
  companyId: number,
  id: number,
  status: 'matched' | 'booked',
  by: LineBooking,
): Promise<void> {
  await tx('bank_transactions')
    .where({ company_id: companyId, id })
    .update({
      status,
      document_id: by.documentId ?? null,
      payment_id: by.paymentId ?? null,
      booked_account_id: by.accountId ?? null,
      journal_id: by.journalId ?? null,
      rule_id: by.ruleId ?? null,
      booked_at: tx.fn.now(),
    });
}

interface ProposalDocumentRow {
  id: number | string;
  vc: 'vendor' | 'customer';
  party_id: number | string;
  party_name: string;
  inv_number: string;
  inv_date: string;
  qr_reference: string | null;
  payment_reference: string | null;
  currency: string;
  open: string;
}

export interface OpenDocumentRow {
  id: number;
  vc: 'vendor' | 'customer';
  partyId: number;
  partyName: string;
  number: string;
  date: string;
  qrReference: string | null;
  paymentReference: string | null;
  currency: string;
  open: string;
}

/** The open posted documents (not reversals) in these currencies: what proposals and settle rules choose from. */
export async function openDocuments(
  tx: Tx,
  companyId: number,
  currencies: readonly string[],
): Promise<OpenDocumentRow[]> {
  if (currencies.length === 0) return [];
  const rows = await tx('arap_transactions as t')
    .join('parties as p', (j) => j.on('p.id', 't.party_id').andOn('p.company_id', 't.company_id'))
    .where('t.company_id', companyId)
    .where('t.status', 'posted')
    .whereNull('t.reversal_of_id')
    .whereRaw('t.amount - t.paid > 0')
    .whereIn('t.currency', currencies)
    .select<ProposalDocumentRow[]>(
      't.id',
      't.vc',
      't.party_id',
      'p.name as party_name',
      't.inv_number',
      tx.raw('t.inv_date::text as inv_date'),
      't.qr_reference',
      't.payment_reference',
      't.currency',
      tx.raw('(t.amount - t.paid)::text as open'),
    );
  return rows.map((r) => ({
    id: Number(r.id),
    vc: r.vc,
    partyId: Number(r.party_id),
    partyName: r.party_name,
    number: r.inv_number,
    date: r.inv_date,
    qrReference: r.qr_reference,
    paymentReference: r.payment_reference,
    currency: r.currency.trim(),
    open: r.open,
  }));
}

/** Keeps each camt.053 statement's closing balance (a statement imported again keeps its first row). */
export async function insertStatementBalances(
  tx: Tx,
  companyId: number,
  rows: readonly { bankAccountId: number; statementId: string; date: string; closing: string; currency: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx('bank_statements')
    .insert(
      rows.map((r) => ({
        company_id: companyId,
        bank_account_id: r.bankAccountId,
        statement_id: r.statementId,
        date: r.date,
        closing: r.closing,
        currency: r.currency,
      })),
    )
    .onConflict(['company_id', 'bank_account_id', 'statement_id', 'date'])
    .ignore();
}

/** The last statement balance of the account up to the date (the latest date, then the latest imported). */
export async function statementBalance(
  tx: Tx,
  companyId: number,
  bankAccountId: number,
  date: string | null,
): Promise<{ date: string; closing: string } | undefined> {
  const q = tx('bank_statements').where({ company_id: companyId, bank_account_id: bankAccountId });
  if (date !== null) q.where('date', '<=', date);
  return q
    .orderBy([
      { column: 'date', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<{ date: string; closing: string } | undefined>(
      tx.raw('date::text as date'),
      tx.raw('closing::text as closing'),
    );
}

/** The sum of the ledger lines on a chart account up to the date (in the account's own currency: fx_amount). */
export async function ledgerBalance(
  tx: Tx,
  companyId: number,
  accountId: number,
  date: string,
  foreign: boolean,
): Promise<string> {
  const row = await tx('ledger_entries')
    .where({ company_id: companyId, account_id: accountId })
    .where('date', '<=', date)
    .first<{ s: string | null }>(tx.raw(`coalesce(sum(${foreign ? 'fx_amount' : 'amount'}), 0)::text as s`));
  return row?.s ?? '0';
}

export interface UnmatchedLedgerLine {
  id: number;
  date: string;
  amount: string;
  journal_id: number | null;
  payment_id: number | null;
  transaction_id: number | null;
}

/** Ledger lines on the bank's chart account up to the date that no bank line of the account booked. */
export async function unmatchedLedgerLines(
  tx: Tx,
  companyId: number,
  bankAccountId: number,
  accountId: number,
  date: string,
  limit: number,
): Promise<UnmatchedLedgerLine[]> {
  const { rows } = await tx.raw<{
    rows: {
      id: string;
      date: string;
      amount: string;
      journal_id: string | null;
      payment_id: string | null;
      transaction_id: string | null;
    }[];
  }>(
    `select e.id, e.date::text as date, e.amount::text as amount, e.journal_id, e.payment_id, e.transaction_id
       from ledger_entries e
      where e.company_id = ? and e.account_id = ? and e.date <= ?
        and not exists (
          select 1 from bank_transactions b
           where b.company_id = e.company_id and b.bank_account_id = ?
             and ((e.journal_id is not null and b.journal_id = e.journal_id)
               or (e.payment_id is not null and b.payment_id = e.payment_id)))
      order by e.date, e.id
      limit ?`,
    [companyId, accountId, date, bankAccountId, limit],
  );
  const id = (v: string | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    id: Number(r.id),
    date: r.date,
    amount: r.amount,
    journal_id: id(r.journal_id),
    payment_id: id(r.payment_id),
    transaction_id: id(r.transaction_id),
  }));
}

/** The last date the account was reconciled to, if ever. */
export async function lastReconciled(tx: Tx, companyId: number, bankAccountId: number): Promise<string | null> {
  const row = await tx('bank_reconciliations')
    .where({ company_id: companyId, bank_account_id: bankAccountId })
    .first<{ d: string | null }>(tx.raw('max(date)::text as d'));
  return row?.d ?? null;
}

/** Marks the booked lines of the account up to the date reconciled; the number marked. */
export async function markReconciled(tx: Tx, companyId: number, bankAccountId: number, date: string): Promise<number> {
  return tx('bank_transactions')
    .where({ company_id: companyId, bank_account_id: bankAccountId })
    .whereNot('status', 'unmatched')
    .whereNull('reconciled_on')
    .where('date', '<=', date)
    .update({ reconciled_on: date });
}

export async function insertReconciliation(
  tx: Tx,
  companyId: number,
  r: { bankAccountId: number; date: string; statementBalance: string; lines: number; userId: number | null },
): Promise<void> {
  await tx('bank_reconciliations').insert({
    company_id: companyId,
    bank_account_id: r.bankAccountId,
    date: r.date,
    statement_balance: r.statementBalance,
    lines: r.lines,
    created_by: r.userId,
  });
}

/** Undoes the reconciliations of the account from the date on: their lines unmarked, the records removed. */
export async function undoReconciliations(
  tx: Tx,
  companyId: number,
  bankAccountId: number,
  from: string,
): Promise<number> {
  const lines = await tx('bank_transactions')
    .where({ company_id: companyId, bank_account_id: bankAccountId })
    .where('reconciled_on', '>=', from)
    .update({ reconciled_on: null });
  await tx('bank_reconciliations')
    .where({ company_id: companyId, bank_account_id: bankAccountId })
    .where('date', '>=', from)
    .delete();
  return lines;
}

/** Marks many lines booked in one statement (the rule bookings of an import written together). */
export async function markLinesBooked(
  tx: Tx,
  companyId: number,
  status: 'matched' | 'booked',
  rows: readonly { id: number; by: LineBooking }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.raw(
    `update bank_transactions b set status = ?, document_id = x.document_id, payment_id = x.payment_id,
       booked_account_id = x.booked_account_id, journal_id = x.journal_id, rule_id = x.rule_id, booked_at = now()
     from jsonb_to_recordset(?::jsonb) as x(id bigint, document_id bigint, payment_id bigint, booked_account_id bigint,
       journal_id bigint, rule_id bigint)
     where b.company_id = ? and b.id = x.id`,
    [
      status,
      JSON.stringify(
        rows.map((r) => ({
          id: r.id,
          document_id: r.by.documentId ?? null,
          payment_id: r.by.paymentId ?? null,
          booked_account_id: r.by.accountId ?? null,
          journal_id: r.by.journalId ?? null,
          rule_id: r.by.ruleId ?? null,
        })),
      ),
      companyId,
    ],
  );
}
