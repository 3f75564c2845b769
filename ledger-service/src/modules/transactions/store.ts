import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import { nextNumber } from '../../db/sequences.ts';
import { DEFAULT_NUMBER_FORMATS } from '../../domain/numbering.ts';
import type { auditRow } from '../../db/audit.ts';
import type { FileContent } from './dataUri.ts';
import { putDocument } from '../files/store.ts';
import type { LedgerLine, Posting, Vc } from './posting.ts';
import type { ResolvedLine, ResolvedTransaction } from './rules.ts';
import { conflict } from '../../domain/errors.ts';

/** Rows of arap_transactions and the SQL that writes them. Every function runs inside the caller's transaction. */
export type Status = 'draft' | 'posted' | 'reversed';
/** What a row of arap_transactions is: an AR/AP transaction (lines) or an invoice (items, modules/invoices). */
export type DocumentType = 'transaction' | 'invoice';

export interface HeaderRow {
  id: number;
  vc: Vc;
  type: DocumentType;
  party_id: number;
  inv_number: string;
  document_number: string | null;
  inv_date: string;
  due_date: string | null;
  currency: string;
  exchangerate: string;
  record_account_id: number;
  description: string | null;
  taxincluded: boolean;
  status: Status;
  reversal_of_id: number | null;
  reversed_by_id: number | null;
  payment_file: boolean;
  vc_bank_id: number | null;
  payment_reference: string | null;
  net_amount: string;
  tax_amount: string;
  amount: string;
  paid: string;
}

export interface HeaderFields {
  documentNumber: string | null;
  description: string | null;
  status: Status;
  /** the columns of the document's type (`type` and, for invoices, their own fields) */
  typeColumns?: Readonly<Record<string, Knex.Value>>;
}

/** A document number given by the caller that another document already has: 409 on the number field. */
export const numberTaken = (invNumber: string) => conflict(`Document number ${invNumber} already exists.`, '/invNumber');

export const sequenceKind = (vc: Vc) => (vc === 'vendor' ? 'ap_transaction' : 'ar_transaction');

/** The company's number format for a sequence kind, split around its `{0…0}` placeholder. */
export function numberFormat(company: Company, kind: string): { prefix: string; width: number; suffix: string } {
  const formats = (company.settings.number_formats ?? {}) as Record<string, string>;
  const format = formats[kind] ?? DEFAULT_NUMBER_FORMATS[kind] ?? '{000000}';
  const m = /\{(0+)\}/.exec(format);
  if (!m) return { prefix: format, width: 0, suffix: '' };
  return { prefix: format.slice(0, m.index), width: m[1]!.length, suffix: format.slice(m.index + m[0].length) };
}

const trimCurrency = (row: HeaderRow): HeaderRow => ({ ...row, currency: row.currency.trim() });

/** Locks one document of a side and type for the rest of the transaction; undefined when it does not exist. */
export async function lockHeader(tx: Tx, vc: Vc, id: number, type: DocumentType = 'transaction'): Promise<HeaderRow | undefined> {
  const row = (await tx('arap_transactions').where({ id, vc, type }).forUpdate().first()) as HeaderRow | undefined;
  return row && trimCurrency(row);
}

/**
 * Whether payments were recorded against the document that are not reversed: the payments
 * module (modules/payments) keeps `paid` up to date in the same transaction as each payment.
 */
export async function hasPayments(_tx: Tx, row: HeaderRow): Promise<boolean> {
  return Number(row.paid) !== 0;
}

function headerValues(r: ResolvedTransaction, p: Posting, f: HeaderFields) {
  return {
    party_id: r.partyId,
    document_number: f.documentNumber,
    inv_date: r.invDate,
    due_date: r.dueDate,
    currency: r.currency,
    exchangerate: r.exchangerate.toString(),
    record_account_id: r.posting.controlAccountId,
    description: f.description,
    taxincluded: r.posting.taxincluded,
    status: f.status,
    payment_file: r.paymentFile,
    vc_bank_id: r.vcBankId,
    payment_reference: r.paymentReference,
    net_amount: p.net.toString(),
    tax_amount: p.tax.toString(),
    amount: p.gross.toString(),
    posted_at: f.status === 'posted' ? new Date() : null,
    ...f.typeColumns,
  };
}

/**
 * Inserts a header. With `invNumber` the number must be free (else a conflict); without
 * it the side's sequence gives the next number, skipping numbers already taken by hand.
 */
export async function insertHeader(
  tx: Tx, company: Company, vc: Vc, invNumber: string | undefined, values: Record<string, unknown>,
): Promise<{ id: number; invNumber: string }> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const number = invNumber ?? (await nextNumber(tx, company, sequenceKind(vc)));
    const rows = (await tx('arap_transactions')
      .insert({ company_id: company.id, vc, inv_number: number, ...values })
      .onConflict(['company_id', 'vc', 'inv_number'])
      .ignore()
      .returning('id')) as { id: number }[];
    if (rows[0]) return { id: rows[0].id, invNumber: number };
    if (invNumber !== undefined) throw numberTaken(invNumber);
  }
  throw new Error('no free document number found');
}

export async function updateHeader(
  tx: Tx, id: number, vc: Vc, current: HeaderRow, invNumber: string | undefined, r: ResolvedTransaction, p: Posting, f: HeaderFields,
): Promise<void> {
  if (invNumber !== undefined && invNumber !== current.inv_number) {
    const taken = await tx('arap_transactions').where({ vc, inv_number: invNumber }).first('id');
    if (taken) throw numberTaken(invNumber);
  }
  await tx('arap_transactions')
    .where({ id })
    .update({
      ...headerValues(r, p, f),
      inv_number: invNumber ?? current.inv_number,
      updated_at: tx.fn.now(),
      posted_at: f.status === 'posted' ? (current.status === 'posted' ? tx.raw('posted_at') : tx.fn.now()) : null,
    });
}

function lineRows(lines: ResolvedLine[], p: Posting) {
  return p.lines.map((l, i) => ({
    position: i + 1,
    account_id: l.accountId,
    description: lines[i]!.description,
    amount: l.amount.toString(),
    tax_account_id: l.taxAccountId,
    tax_rate: l.rate?.toString() ?? null,
    tax_amount: l.tax.toString(),
    tax_override: l.taxOverride !== null,
    net: l.net.toString(),
  }));
}

function entryRows(date: string, currency: string, entries: readonly LedgerLine[]) {
  return entries.map((e) => ({
    account_id: e.accountId,
    date,
    amount: e.amount.toString(),
    fx_amount: e.fxAmount.toString(),
    currency,
    kind: e.kind,
  }));
}

/** Replaces the document's lines with the computed ones (one insert). */
export async function replaceLines(tx: Tx, companyId: number, id: number, lines: ResolvedLine[], p: Posting, replace: boolean): Promise<void> {
  if (replace) await tx('arap_lines').where({ transaction_id: id }).delete();
  await tx('arap_lines').insert(lineRows(lines, p).map((r) => ({ company_id: companyId, transaction_id: id, ...r })));
}

export async function insertEntries(
  tx: Tx, companyId: number, id: number, date: string, currency: string, entries: readonly LedgerLine[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx('ledger_entries').insert(entryRows(date, currency, entries).map((r) => ({ company_id: companyId, transaction_id: id, ...r })));
}

export interface NewDocument {
  /** the caller's invNumber, or the sequence to number the document from */
  number: { own: string } | { sequence: string };
  resolved: ResolvedTransaction;
  posting: Posting;
  fields: HeaderFields;
  /** the audit entry; its entity_id is the new document's id, `invNumber` is added to its details */
  audit: ReturnType<typeof auditRow>;
  children?: ChildRows;
}

/**
 * Rows of a table that hangs off a document by `transaction_id` (invoice_items): its name,
 * the SQL type of each column the rows carry, and the rows (company_id and transaction_id
 * are added).
 */
export interface ChildRows {
  table: string;
  columns: Readonly<Record<string, string>>;
  rows: readonly Record<string, string | number | null>[];
}

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;

/** `insert into <table> (...) select ..., x.<col> from <source>, jsonb_to_recordset(?) as x(...)`, names checked. */
function childInsert(children: ChildRows, idSource: string, idExpr: string): string {
  const names = Object.keys(children.columns);
  for (const name of [children.table, ...names]) if (!SQL_NAME.test(name)) throw new Error(`not an SQL name: ${name}`);
  const types = names.map((n) => `${n} ${children.columns[n]}`).join(', ');
  return `insert into ${children.table} (company_id, transaction_id, ${names.join(', ')})
       select ?, ${idExpr}, ${names.map((n) => `x.${n}`).join(', ')} from ${idSource}jsonb_to_recordset(?::jsonb) as x(${types})`;
}

/** Replaces a document's child rows (update). */
export async function replaceChildren(tx: Tx, companyId: number, id: number, children: ChildRows): Promise<void> {
  await tx(children.table).where({ transaction_id: id }).delete();
  if (children.rows.length > 0) await tx.raw(childInsert(children, '', '?'), [companyId, id, JSON.stringify(children.rows)]);
}

/**
 * Writes a new document in one statement: the number (from the sequence, formatted as
 * formatNumber does), header, lines, ledger lines (when posted) and the audit entry. The
 * sequence row is locked only from here to the commit, so concurrent creates queue for it
 * as briefly as possible. Undefined when the number is taken (then nothing was written;
 * a sequence value was used up, so calling again takes the next one).
 */
export async function insertDocument(tx: Tx, company: Company, vc: Vc, doc: NewDocument): Promise<{ id: number; invNumber: string } | undefined> {
  const header = headerValues(doc.resolved, doc.posting, doc.fields);
  const columns = Object.keys(header);
  const entries = doc.fields.status === 'posted' ? entryRows(doc.resolved.invDate, doc.resolved.currency, doc.posting.entries) : [];
  const a = doc.audit;
  const fmt = 'sequence' in doc.number ? numberFormat(company, doc.number.sequence) : null;
  const numbering = 'sequence' in doc.number
    ? `seq as (insert into sequences (company_id, kind, next_value) values (?, ?, 2)
         on conflict (company_id, kind) do update set next_value = sequences.next_value + 1 returning (next_value - 1)::text as v),
       num as (select ?::text || case when length(v) >= ? then v else lpad(v, ?, '0') end || ?::text as inv_number from seq),`
    : `num as (select ?::text as inv_number),`;
  const numberBindings = 'sequence' in doc.number
    ? [company.id, doc.number.sequence, fmt!.prefix, fmt!.width, fmt!.width, fmt!.suffix]
    : [doc.number.own];
  const { rows } = await tx.raw<{ rows: { id: number; inv_number: string }[] }>(
    `with ${numbering}
     h as (
       insert into arap_transactions (company_id, vc, inv_number, ${columns.join(', ')})
       select ?, ?, num.inv_number, ${columns.map(() => '?').join(', ')} from num
       on conflict (company_id, vc, inv_number) do nothing returning id, inv_number),
     l as (
       insert into arap_lines (company_id, transaction_id, position, account_id, description, amount, tax_account_id, tax_rate, tax_amount, tax_override, net)
       select ?, h.id, x.position, x.account_id, x.description, x.amount, x.tax_account_id, x.tax_rate, x.tax_amount, x.tax_override, x.net
       from h, jsonb_to_recordset(?::jsonb) as x(position int, account_id bigint, description text, amount numeric, tax_account_id bigint,
         tax_rate numeric, tax_amount numeric, tax_override boolean, net numeric)),
     e as (
       insert into ledger_entries (company_id, transaction_id, account_id, date, amount, fx_amount, currency, kind)
       select ?, h.id, x.account_id, x.date, x.amount, x.fx_amount, x.currency, x.kind
       from h, jsonb_to_recordset(?::jsonb) as x(account_id bigint, date date, amount numeric, fx_amount numeric, currency text, kind text)),
     a as (
       insert into audit_log (company_id, user_id, via, via_id, via_label, entity, entity_id, action, details)
       select ?, ?, ?, ?, ?, ?, h.id::text, ?, jsonb_build_object('invNumber', h.inv_number) || ?::jsonb from h)
     ${doc.children ? `, c as (${childInsert(doc.children, 'h, ', 'h.id')})` : ''}
     select id, inv_number from h`,
    [
      ...numberBindings,
      company.id, vc, ...columns.map((c) => (header as Record<string, Knex.Value>)[c]),
      company.id, JSON.stringify(lineRows(doc.resolved.posting.lines, doc.posting)),
      company.id, JSON.stringify(entries),
      a.company_id, a.user_id, a.via, a.via_id, a.via_label, a.entity, a.action, a.details ?? '{}',
      ...(doc.children ? [company.id, JSON.stringify(doc.children.rows)] : []),
    ],
  );
  const row = rows[0];
  return row && { id: row.id, invNumber: row.inv_number };
}

export async function deleteEntries(tx: Tx, id: number): Promise<void> {
  // the document's own lines; lines of its (reversed) payments carry payment_id and stay
  await tx('ledger_entries').where({ transaction_id: id }).whereNull('payment_id').delete();
}

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const fileKey = (name: string, sha256: string) => `${sha256}:${name}`;

/**
 * Attaches files to a document, except those whose name and content (SHA-256) equal an
 * attachment it already has or an earlier file of the same call: a client that sends the
 * complete document back (GET → POST, approve) does not attach its files again.
 * Returns how many files were added.
 */
export async function insertFiles(tx: Tx, companyId: number, id: number, files: readonly FileContent[]): Promise<number> {
  if (files.length === 0) return 0;
  const hashed = files.map((f) => ({ ...f, sha256: sha256Hex(f.data) }));
  const existing = (await tx('arap_files')
    .where({ transaction_id: id })
    .whereIn('sha256', [...new Set(hashed.map((f) => f.sha256))])
    .select('name', 'sha256')) as { name: string; sha256: string }[];
  const seen = new Set(existing.map((f) => fileKey(f.name, f.sha256)));
  const fresh = hashed.filter((f) => {
    const key = fileKey(f.name, f.sha256);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (fresh.length === 0) return 0;
  // the bytes go to the document store, once per company (modules/files); the row links the document
  const rows = [];
  for (const f of fresh) {
    const doc = await putDocument(tx, companyId, f, 'upload');
    rows.push({ company_id: companyId, transaction_id: id, name: f.name, media_type: f.mediaType, size: f.data.length, sha256: f.sha256, document_id: doc.id });
  }
  await tx('arap_files').insert(rows);
  return fresh.length;
}

/** Removes one attachment of a document; its metadata, or undefined when the document has no such file. */
export async function deleteFile(tx: Tx, id: number, fileId: number): Promise<{ name: string; media_type: string; size: number; sha256: string } | undefined> {
  const [row] = (await tx('arap_files')
    .where({ id: fileId, transaction_id: id })
    .delete()
    .returning(['name', 'media_type', 'size', 'sha256'])) as { name: string; media_type: string; size: number; sha256: string }[];
  return row;
}

export async function deleteHeader(tx: Tx, id: number): Promise<void> {
  await tx('arap_transactions').where({ id }).delete();
}
