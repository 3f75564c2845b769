import { createHash } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { Money } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import { closedUntil } from '../../db/companies.ts';
import { nextNumber } from '../../db/sequences.ts';
import { conflict } from '../../domain/errors.ts';
import type { FileContent } from '../transactions/dataUri.ts';
import { putDocument } from '../files/store.ts';
import type { JournalRuleContext } from './rules.ts';

/** Rows of gl_transactions, gl_lines, gl_files and the journal's ledger_entries. Every function runs inside the caller's transaction. */
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
}

/** The number sequence of journal entries (format `settings.number_formats.gl_transaction`, default GL-000001). */
export const JOURNAL_SEQUENCE = 'gl_transaction';

export const referenceTaken = (reference: string) => conflict(`Journal entry reference ${reference} already exists.`, '/reference');

/** The accounts an entry names (links split) and what the rules need of the company. */
export async function loadJournalContext(tx: Tx, company: Company, accnos: string[]): Promise<JournalRuleContext> {
  const rows = (await tx('accounts').whereIn('accno', accnos).select('id', 'accno', 'link')) as { id: number; accno: string; link: string }[];
  return {
    baseCurrency: company.base_currency.trim(),
    closedUntil: await closedUntil(tx, company.id),
    accounts: new Map(rows.map((r) => [r.accno, { id: r.id, accno: r.accno, links: r.link ? r.link.split(':') : [] }])),
  };
}

/** Locks one entry for the rest of the transaction; undefined when it does not exist. */
export async function lockJournal(tx: Tx, id: number): Promise<JournalRow | undefined> {
  const row = (await tx('gl_transactions')
    .where({ id })
    .forUpdate()
    .first('id', 'reference', tx.raw('transdate::text as transdate'), 'description', 'currency', 'exchangerate', 'status',
      'reversal_of_id', 'reversed_by_id', 'closing', 'fiscal_year')) as JournalRow | undefined;
  return row && { ...row, currency: row.currency.trim() };
}

/** Inserts a header under `reference`; undefined when another entry has that reference (nothing written). */
export async function insertJournalHeaderIfFree(
  tx: Tx, companyId: number, reference: string, values: Record<string, unknown>,
): Promise<{ id: number; reference: string } | undefined> {
  const rows = (await tx('gl_transactions')
    .insert({ company_id: companyId, reference, ...values })
    .onConflict(['company_id', 'reference'])
    .ignore()
    .returning('id')) as { id: number }[];
  return rows[0] && { id: rows[0].id, reference };
}

/**
 * Inserts a header. With `reference` it must be free (else 409 on /reference); without it
 * the GL sequence gives the next number, skipping numbers already taken by hand.
 */
export async function insertJournalHeader(
  tx: Tx, company: Company, reference: string | undefined, values: Record<string, unknown>,
): Promise<{ id: number; reference: string }> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const created = await insertJournalHeaderIfFree(tx, company.id, reference ?? (await nextNumber(tx, company, JOURNAL_SEQUENCE)), values);
    if (created) return created;
    if (reference !== undefined) throw referenceTaken(reference);
  }
  throw new Error('no free journal reference found');
}

export async function updateJournalHeader(tx: Tx, id: number, values: Record<string, unknown>): Promise<void> {
  await tx('gl_transactions').where({ id }).update({ ...values, updated_at: tx.fn.now() });
}

export async function referenceInUse(tx: Tx, reference: string, exceptId: number): Promise<boolean> {
  return (await tx('gl_transactions').where({ reference }).whereNot({ id: exceptId }).first('id')) !== undefined;
}

/** Writes the entry's lines (replacing the old ones when `replace`). */
export async function writeLines(tx: Tx, companyId: number, id: number, lines: readonly JournalLineRow[], replace: boolean): Promise<void> {
  if (replace) await tx('gl_lines').where({ journal_id: id }).delete();
  if (lines.length === 0) return;
  await tx('gl_lines').insert(lines.map((l, i) => ({
    company_id: companyId, journal_id: id, position: i + 1, account_id: l.accountId, description: l.description,
    debit: l.debit.toString(), credit: l.credit.toString(), base_amount: l.baseAmount.toString(),
  })));
}

/** The ledger lines of a posted entry: one per line, dated transdate. */
export async function insertJournalEntries(
  tx: Tx, companyId: number, id: number, entry: { transdate: string; currency: string; closing: boolean }, lines: readonly JournalLineRow[],
): Promise<void> {
  if (lines.length === 0) return;
  await tx('ledger_entries').insert(lines.map((l) => ({
    company_id: companyId, journal_id: id, account_id: l.accountId, date: entry.transdate,
    amount: l.baseAmount.toString(), fx_amount: l.debit.minus(l.credit).toString(), currency: entry.currency,
    kind: 'journal', closing: entry.closing,
  })));
}

/** The stored lines of an entry, in order (what a reversal mirrors). */
export async function journalLines(tx: Tx, id: number): Promise<JournalLineRow[]> {
  const rows = (await tx('gl_lines').where({ journal_id: id }).orderBy('position')
    .select('account_id', 'description', 'debit', 'credit', 'base_amount')) as
    { account_id: number; description: string | null; debit: string; credit: string; base_amount: string }[];
  return rows.map((r) => ({
    accountId: r.account_id, description: r.description, debit: new Money(r.debit), credit: new Money(r.credit), baseAmount: new Money(r.base_amount),
  }));
}

export async function deleteJournal(tx: Tx, id: number): Promise<void> {
  await tx('gl_transactions').where({ id }).delete();
}

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Attaches files to an entry, except those whose name and content (SHA-256) equal a file it
 * already has or an earlier file of the same call (as AR/AP documents: a client sending the
 * complete entry back does not attach its files twice). Returns how many were added.
 */
export async function insertJournalFiles(tx: Tx, companyId: number, id: number, files: readonly FileContent[]): Promise<number> {
  if (files.length === 0) return 0;
  const hashed = files.map((f) => ({ ...f, sha256: sha256Hex(f.data) }));
  const existing = (await tx('gl_files').where({ journal_id: id }).select('name', 'sha256')) as { name: string; sha256: string }[];
  const seen = new Set(existing.map((f) => `${f.sha256}:${f.name}`));
  const fresh = hashed.filter((f) => {
    const key = `${f.sha256}:${f.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (fresh.length > 0) {
    // the bytes go to the document store, once per company (modules/files, migration 016); the row links the document
    const rows = [];
    for (const f of fresh) {
      const doc = await putDocument(tx, companyId, f, 'upload');
      rows.push({ company_id: companyId, journal_id: id, name: f.name, media_type: f.mediaType, size: f.data.length, sha256: f.sha256, document_id: doc.id });
    }
    await tx('gl_files').insert(rows);
  }
  return fresh.length;
}
