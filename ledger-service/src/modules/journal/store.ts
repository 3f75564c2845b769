import type { Decimal } from 'decimal.js';
import { Money } from '@ledger/shared';
import type { Knex } from 'knex';
import { preparedQuery, type Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import type { Dimensions } from '../../db/tables.ts';
import { freeNumbers, nextNumber, numberingCte } from '../../db/sequences.ts';
import { insertJsonRows, type JsonColumns, LEDGER_ENTRY_COLUMNS } from '../../db/jsonRows.ts';
import { conflict } from '../../domain/errors.ts';
import type { FileContent } from '../arap/index.ts';
import { loadDimensionCatalogue } from '../dimensions/index.ts';
import { attachFiles } from '../files/index.ts';
import type { auditRow } from '../../db/audit.ts';
import type { JournalRuleContext } from './rules.ts';

/**
 * Rows of gl_transactions, gl_lines, gl_files and the journal's ledger_entries. Every function runs inside the caller's
 * transaction.
 */
export type JournalStatus = 'draft' | 'posted' | 'reversed';

export interface JournalRow {
  id: number;
  reference: string;
  transdate: string;
  description: string | null;
  currency: string;
  exchangerate: string;
  status: JournalStatus;
  reversal_of_id: number | null;
  reversed_by_id: number | null;
  closing: boolean;
  fiscal_year: number | null;
}

/** A line as stored: entry-currency debit/credit and the signed base amount. */
export interface JournalLineRow {
  accountId: number;
  description: string | null;
  debit: Decimal;
  credit: Decimal;
  baseAmount: Decimal;
  /** dimension code → value code; null: unassigned */
  dimensions: Dimensions | null;
}

/** The number sequence of journal entries (format `settings.number_formats.gl_transaction`, default GL-000001). */
export const JOURNAL_SEQUENCE = 'gl_transaction';

export const referenceTaken = (reference: string) =>
  conflict(`Journal entry reference ${reference} already exists.`, '/reference');

const JOURNAL_CONTEXT_SQL = `select (select closed_until::text from companies where id = ?) as closed_until,
  coalesce((select json_agg(json_build_object('id', id, 'accno', accno, 'link', link))
              from accounts where company_id = ? and accno = any(?::text[])), '[]') as accounts`;

/** The accounts an entry names (links split) and what the rules need of the company. */
export async function loadJournalContext(
  tx: Tx,
  company: Company,
  accnos: string[],
  withDimensions: boolean,
): Promise<JournalRuleContext> {
  // one round trip: the closing date and the named accounts
  const { rows } = await preparedQuery<{
    closed_until: string | null;
    accounts: { id: number; accno: string; link: string | null }[];
  }>(tx, JOURNAL_CONTEXT_SQL, [company.id, company.id, accnos]);
  const row = rows[0]!;
  return {
    baseCurrency: company.base_currency.trim(),
    closedUntil: row.closed_until,
    accounts: new Map(
      row.accounts.map((r) => [r.accno, { id: r.id, accno: r.accno, links: r.link ? r.link.split(':') : [] }]),
    ),
    dimensions: withDimensions ? await loadDimensionCatalogue(tx, company.id) : new Map(),
  };
}

/** The columns of an entry's gl_lines rows as lineRows gives them, with their SQL types. */
const LINE_COLUMNS: JsonColumns = {
  position: 'int',
  account_id: 'bigint',
  description: 'text',
  debit: 'numeric',
  credit: 'numeric',
  base_amount: 'numeric',
  dimensions: 'jsonb',
};

/** An entry's lines as gl_lines rows (journal_id and company_id are added by the statement). */
function lineRows(lines: readonly JournalLineRow[]) {
  return lines.map((l, i) => ({
    position: i + 1,
    account_id: l.accountId,
    description: l.description,
    debit: l.debit.toString(),
    credit: l.credit.toString(),
    base_amount: l.baseAmount.toString(),
    dimensions: l.dimensions,
  }));
}

/**
 * A posted entry's ledger lines (columns LEDGER_ENTRY_COLUMNS): one per line, dated transdate,
 * the base amount and the signed entry-currency one.
 */
function entryRows(posting: { transdate: string; currency: string }, lines: readonly JournalLineRow[]) {
  return lines.map((l) => ({
    account_id: l.accountId,
    date: posting.transdate,
    amount: l.baseAmount.toString(),
    fx_amount: l.debit.minus(l.credit).toString(),
    currency: posting.currency,
    dimensions: l.dimensions,
  }));
}

/** Rows that hang off the entry the statement writes (its CTE `h`). */
const OF_NEW_ENTRY = { company_id: '?', journal_id: 'h.id' };
/** The ledger lines of an ordinary (not year-closing) journal entry. */
const OF_JOURNAL = { kind: "'journal'", closing: 'false' };

/** A new entry as one statement writes it (insertJournalEntry). */
export interface NewJournalEntry {
  /** the header's columns but company_id and reference */
  values: Record<string, Knex.Value>;
  lines: readonly JournalLineRow[];
  /** the ledger lines of a posted entry; undefined for a draft */
  entries?: { transdate: string; currency: string };
  /** the audit entry, written with the entry; its details get the entry's `reference` */
  audit?: ReturnType<typeof auditRow>;
}

/**
 * Writes a new entry in one statement: the reference (the one given, or the next of the GL
 * sequence), the header, the lines, the ledger lines of a posted entry and the audit entry.
 * Undefined when another entry has that reference (nothing written; the sequence number is
 * used up, as with nextNumber). Taking the number in the same statement keeps the sequence
 * row, which every numbered entry of the company locks, locked from here to the commit only.
 */
export async function insertJournalEntry(
  tx: Tx,
  company: Company,
  reference: string | undefined,
  entry: NewJournalEntry,
): Promise<{ id: number; reference: string } | undefined> {
  const numbering = numberingCte(
    company,
    reference === undefined ? { sequence: JOURNAL_SEQUENCE } : { own: reference },
    'reference',
  );
  const columns = Object.keys(entry.values);
  const a = entry.audit;
  const sql = `with ${numbering.sql}
     h as (
       insert into gl_transactions (company_id, reference, ${columns.join(', ')})
       select ?, num.reference, ${columns.map(() => '?').join(', ')} from num
       on conflict (company_id, reference) do nothing returning id, reference),
     l as (${insertJsonRows('gl_lines', LINE_COLUMNS, OF_NEW_ENTRY, 'h')}),
     e as (${insertJsonRows('ledger_entries', LEDGER_ENTRY_COLUMNS, { ...OF_NEW_ENTRY, ...OF_JOURNAL }, 'h')})
     ${
       a
         ? `, a as (
       insert into audit_log (company_id, user_id, via, via_id, via_label, entity, entity_id, action, details)
       select ?, ?, ?, ?, ?, ?, h.id::text, ?, jsonb_build_object('reference', h.reference) || ?::jsonb from h)`
         : ''
     }
     select id, reference from h`;
  const { rows } = await preparedQuery<{ id: number; reference: string }>(tx, sql, [
    ...numbering.bindings,
    company.id,
    ...columns.map((c) => entry.values[c] ?? null),
    company.id,
    JSON.stringify(lineRows(entry.lines)),
    company.id,
    JSON.stringify(entry.entries ? entryRows(entry.entries, entry.lines) : []),
    ...(a ? [a.company_id, a.user_id, a.via, a.via_id, a.via_label, a.entity, a.action, a.details ?? '{}'] : []),
  ]);
  const row = rows[0];
  return row && { id: row.id, reference: row.reference };
}

/** Locks one entry for the rest of the transaction; undefined when it does not exist. */
export async function lockJournal(tx: Tx, companyId: number, id: number): Promise<JournalRow | undefined> {
  const row = await tx('gl_transactions')
    .where({ company_id: companyId, id })
    .forUpdate()
    .first<JournalRow | undefined>(
      'id',
      'reference',
      tx.raw('transdate::text as transdate'),
      'description',
      'currency',
      'exchangerate',
      'status',
      'reversal_of_id',
      'reversed_by_id',
      'closing',
      'fiscal_year',
    );
  return row && { ...row, currency: row.currency.trim() };
}

/** Inserts a header under `reference`; undefined when another entry has that reference (nothing written). */
export async function insertJournalHeaderIfFree(
  tx: Tx,
  companyId: number,
  reference: string,
  values: Record<string, unknown>,
): Promise<{ id: number; reference: string } | undefined> {
  const rows = await tx('gl_transactions')
    .insert({ company_id: companyId, reference, ...values })
    .onConflict(['company_id', 'reference'])
    .ignore()
    .returning('id');
  return rows[0] && { id: rows[0].id, reference };
}

/**
 * Inserts a header. With `reference` it must be free (else 409 on /reference); without it
 * the GL sequence gives the next number, skipping numbers already taken by hand.
 */
export async function insertJournalHeader(
  tx: Tx,
  company: Company,
  reference: string | undefined,
  values: Record<string, unknown>,
): Promise<{ id: number; reference: string }> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const created = await insertJournalHeaderIfFree(
      tx,
      company.id,
      reference ?? (await nextNumber(tx, company, JOURNAL_SEQUENCE)),
      values,
    );
    if (created) return created;
    if (reference !== undefined) throw referenceTaken(reference);
  }
  throw new Error('no free journal reference found');
}

export async function updateJournalHeader(
  tx: Tx,
  companyId: number,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  await tx('gl_transactions')
    .where({ company_id: companyId, id })
    .update({ ...values, updated_at: tx.fn.now() });
}

export async function referenceInUse(tx: Tx, companyId: number, reference: string, exceptId: number): Promise<boolean> {
  const q = tx('gl_transactions').where({ company_id: companyId, reference }).whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

/** Writes the entry's lines (replacing the old ones when `replace`). */
export async function writeLines(
  tx: Tx,
  companyId: number,
  id: number,
  lines: readonly JournalLineRow[],
  replace: boolean,
): Promise<void> {
  if (replace) await tx('gl_lines').where({ company_id: companyId, journal_id: id }).delete();
  if (lines.length === 0) return;
  await tx.raw(insertJsonRows('gl_lines', LINE_COLUMNS, { company_id: '?', journal_id: '?' }), [
    companyId,
    id,
    JSON.stringify(lineRows(lines)),
  ]);
}

/** The ledger lines of a posted entry: one per line, dated transdate. */
export async function insertJournalEntries(
  tx: Tx,
  companyId: number,
  id: number,
  entry: { transdate: string; currency: string; closing: boolean },
  lines: readonly JournalLineRow[],
): Promise<void> {
  if (lines.length === 0) return;
  await tx.raw(
    insertJsonRows('ledger_entries', LEDGER_ENTRY_COLUMNS, {
      company_id: '?',
      journal_id: '?',
      kind: "'journal'",
      closing: '?',
    }),
    [companyId, id, entry.closing, JSON.stringify(entryRows(entry, lines))],
  );
}

/** The stored lines of an entry, in order (what a reversal mirrors). */
export async function journalLines(tx: Tx, companyId: number, id: number): Promise<JournalLineRow[]> {
  const rows = await tx('gl_lines')
    .where({ company_id: companyId, journal_id: id })
    .orderBy('position')
    .select('account_id', 'description', 'debit', 'credit', 'base_amount', 'dimensions');
  return rows.map((r) => ({
    accountId: r.account_id,
    description: r.description,
    debit: new Money(r.debit),
    credit: new Money(r.credit),
    baseAmount: new Money(r.base_amount),
    dimensions: r.dimensions,
  }));
}

export async function deleteJournal(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('gl_transactions').where({ company_id: companyId, id }).delete();
}

/**
 * Attaches files to an entry, once per name and content (files/store.ts `attachFiles`). Returns how many were added.
 */
export async function insertJournalFiles(
  tx: Tx,
  companyId: number,
  id: number,
  files: readonly FileContent[],
): Promise<number> {
  return attachFiles(tx, companyId, 'gl_files', id, files);
}

/** The references among `references` that entries of the company already have. */
export async function takenReferences(tx: Tx, companyId: number, references: readonly string[]): Promise<Set<string>> {
  if (references.length === 0) return new Set();
  const rows = await tx('gl_transactions')
    .where({ company_id: companyId })
    .whereIn('reference', references)
    .pluck('reference');
  return new Set(rows);
}

/**
 * `count` free references from the GL sequence, taken in one step; numbers already used by hand
 * (or listed in `reserved`, the batch's own references) are skipped, as insertJournalHeader does.
 */
export async function freeJournalReferences(
  tx: Tx,
  company: Company,
  count: number,
  reserved: ReadonlySet<string>,
): Promise<string[]> {
  return freeNumbers(tx, company, JOURNAL_SEQUENCE, count, reserved, (candidates) =>
    takenReferences(tx, company.id, candidates),
  );
}

/** One entry of a batch as it is stored. */
/** A batch entry's header values (service.ts headerValues, with posted_at and created_by). */
export interface JournalBatchHeader {
  transdate: string;
  description: string | null;
  currency: string;
  exchangerate: string;
  status: string;
  posted_at: Date | null;
  created_by: number | null;
}

/** The columns of a batch's headers, as the statement writing them from JSON declares them. */
const HEADER_COLUMNS: JsonColumns = {
  reference: 'text',
  transdate: 'date',
  description: 'text',
  currency: 'text',
  exchangerate: 'numeric',
  status: 'text',
  posted_at: 'timestamptz',
  created_by: 'bigint',
};

export interface JournalBatchRow {
  reference: string;
  header: JournalBatchHeader;
  lines: readonly JournalLineRow[];
  /** posted: ledger lines are written, dated transdate */
  posting: { transdate: string; currency: string } | null;
}

/**
 * Writes a batch of entries with one statement per table (headers, lines, ledger lines): the
 * rows are the ones createJournalEntry writes one by one. Lines travel as one JSON document
 * (a batch may hold far more values than a statement's 65,535 parameters). Returns the ids in
 * the order of `entries`.
 */
export async function insertJournalBatch(
  tx: Tx,
  companyId: number,
  entries: readonly JournalBatchRow[],
): Promise<number[]> {
  const ofCompany = { company_id: '?' };
  // the headers as one JSON document too: a thousand headers bound as 9,000 parameters cost
  // more to build and send than the statement costs Postgres
  const created = await tx.raw<{ rows: { id: number; reference: string }[] }>(
    `${insertJsonRows('gl_transactions', HEADER_COLUMNS, ofCompany)} returning id, reference`,
    [companyId, JSON.stringify(entries.map((e) => ({ reference: e.reference, ...e.header })))],
  );
  const idOf = new Map(created.rows.map((r) => [r.reference, Number(r.id)]));
  const ids = entries.map((e) => idOf.get(e.reference)!);
  const lines = entries.flatMap((e, i) => lineRows(e.lines).map((l) => ({ journal_id: ids[i], ...l })));
  if (lines.length > 0) {
    await tx.raw(insertJsonRows('gl_lines', { journal_id: 'bigint', ...LINE_COLUMNS }, ofCompany), [
      companyId,
      JSON.stringify(lines),
    ]);
  }
  const ledger = entries.flatMap((e, i) =>
    e.posting === null ? [] : entryRows(e.posting, e.lines).map((l) => ({ journal_id: ids[i], ...l })),
  );
  if (ledger.length > 0) {
    // one statement: the ledger_balances trigger (migration 011) runs once for the whole batch
    await tx.raw(
      insertJsonRows(
        'ledger_entries',
        { journal_id: 'bigint', ...LEDGER_ENTRY_COLUMNS },
        { ...ofCompany, ...OF_JOURNAL },
      ),
      [companyId, JSON.stringify(ledger)],
    );
  }
  return ids;
}
