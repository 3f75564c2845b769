import { Money } from '@ledger/shared';
import type { Knex } from 'knex';
import { closingQuery, preparedQuery, type Tx } from '../../db/knex.ts';
import type { ArapTransactionsRow } from '../../db/tables.ts';
import type { Company } from '../../db/companies.ts';
import { nextNumber, numberingCte } from '../../db/sequences.ts';
import { insertJsonRows, LEDGER_ENTRY_COLUMNS, type JsonColumns } from '../../db/jsonRows.ts';
import type { auditRow } from '../../db/audit.ts';
import type { FileContent } from './dataUri.ts';
import { attachFiles } from '../files/index.ts';
import { eventsWrittenWith } from '../events/index.ts';
import type { EntryKind, LedgerLine, Posting, Vc } from './posting.ts';
import type { ResolvedLine, ResolvedTransaction } from './rules.ts';
import { conflict } from '../../domain/errors.ts';

/** Rows of arap_transactions and the SQL that writes them. Every function runs inside the caller's transaction. */
export type Status = 'draft' | 'posted' | 'reversed';
/** What a row of arap_transactions is: an AR/AP transaction (lines) or an invoice (items, modules/invoices). */
/** The `type` column: AR/AP transactions (lines), invoices and credit notes (items). */
export type DocumentType = 'transaction' | 'invoice' | 'credit_note';

/**
 * A document's header as the workflow and the read shape use it: columns of arap_transactions (their types from
 * db/tables.ts), side, type and status narrowed.
 */
export type HeaderRow = Pick<
  ArapTransactionsRow,
  | 'id'
  | 'party_id'
  | 'inv_number'
  | 'document_number'
  | 'inv_date'
  | 'due_date'
  | 'currency'
  | 'exchangerate'
  | 'record_account_id'
  | 'description'
  | 'taxincluded'
  | 'reversal_of_id'
  | 'reversed_by_id'
  | 'payment_file'
  | 'vc_bank_id'
  | 'payment_reference'
  | 'net_amount'
  | 'tax_amount'
  | 'amount'
  | 'paid'
> & { vc: Vc; type: DocumentType; status: Status };

export interface HeaderFields {
  documentNumber: string | null;
  description: string | null;
  status: Status;
  /** the columns of the document's type (`type` and, for invoices, their own fields) */
  typeColumns?: Readonly<Record<string, Knex.Value>>;
}

/** A document number given by the caller that another document already has: 409 on the number field. */
export const numberTaken = (invNumber: string) =>
  conflict(`Document number ${invNumber} already exists.`, '/invNumber');

export const sequenceKind = (vc: Vc) => (vc === 'vendor' ? 'ap_transaction' : 'ar_transaction');

const trimCurrency = (row: HeaderRow): HeaderRow => ({ ...row, currency: row.currency.trim() });

/** Locks one document of a side and type for the rest of the transaction; undefined when it does not exist. */
export async function lockHeader(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  type: DocumentType = 'transaction',
): Promise<HeaderRow | undefined> {
  const row = await tx<HeaderRow>('arap_transactions')
    .where('company_id', companyId)
    .where({ id, vc, type })
    .forUpdate()
    .first();
  return row && trimCurrency(row);
}

/**
 * Whether payments were recorded against the document that are not reversed: the payments
 * module (modules/payments) keeps `paid` up to date in the same transaction as each payment.
 */
export async function hasPayments(_tx: Tx, row: HeaderRow): Promise<boolean> {
  return Number(row.paid) !== 0;
}

export function headerValues(r: ResolvedTransaction, p: Posting, f: HeaderFields) {
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
  tx: Tx,
  company: Company,
  vc: Vc,
  invNumber: string | undefined,
  values: Record<string, unknown>,
): Promise<{ id: number; invNumber: string }> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const number = invNumber ?? (await nextNumber(tx, company, sequenceKind(vc)));
    const rows = await tx('arap_transactions')
      .insert({ company_id: company.id, vc, inv_number: number, ...values })
      .onConflict(['company_id', 'vc', 'inv_number'])
      .ignore()
      .returning('id');
    if (rows[0]) return { id: rows[0].id, invNumber: number };
    if (invNumber !== undefined) throw numberTaken(invNumber);
  }
  throw new Error('no free document number found');
}

export async function updateHeader(
  tx: Tx,
  companyId: number,
  id: number,
  vc: Vc,
  current: HeaderRow,
  invNumber: string | undefined,
  r: ResolvedTransaction,
  p: Posting,
  f: HeaderFields,
): Promise<void> {
  if (invNumber !== undefined && invNumber !== current.inv_number) {
    const taken = await tx('arap_transactions').where({ company_id: companyId, vc, inv_number: invNumber }).first('id');
    if (taken) throw numberTaken(invNumber);
  }
  await tx('arap_transactions')
    .where({ company_id: companyId, id })
    .update({
      ...headerValues(r, p, f),
      inv_number: invNumber ?? current.inv_number,
      updated_at: tx.fn.now(),
      posted_at: f.status === 'posted' ? (current.status === 'posted' ? tx.raw('posted_at') : tx.fn.now()) : null,
    });
}

/** The columns of lineRows' rows, as a statement writing them from JSON declares them. */
const LINE_COLUMNS: JsonColumns = {
  position: 'int',
  account_id: 'bigint',
  description: 'text',
  amount: 'numeric',
  tax_account_id: 'bigint',
  tax_rate: 'numeric',
  tax_amount: 'numeric',
  tax_override: 'boolean',
  net: 'numeric',
  dimensions: 'jsonb',
};

export function lineRows(lines: ResolvedLine[], p: Posting) {
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
    dimensions: lines[i]!.dimensions ?? null,
  }));
}

/** The columns of entryRows' rows, as a statement writing them from JSON declares them. */
const ENTRY_COLUMNS: JsonColumns = { ...LEDGER_ENTRY_COLUMNS, kind: 'text' };

export function entryRows(date: string, currency: string, entries: readonly LedgerLine[]) {
  return entries.map((e) => ({
    account_id: e.accountId,
    date,
    amount: e.amount.toString(),
    fx_amount: e.fxAmount.toString(),
    currency,
    kind: e.kind,
    dimensions: e.dimensions ?? null,
  }));
}

/** Replaces the document's lines with the computed ones (one insert). */
export async function replaceLines(
  tx: Tx,
  companyId: number,
  id: number,
  lines: ResolvedLine[],
  p: Posting,
  replace: boolean,
): Promise<void> {
  if (replace) await tx('arap_lines').where({ company_id: companyId, transaction_id: id }).delete();
  await tx('arap_lines').insert(lineRows(lines, p).map((r) => ({ company_id: companyId, transaction_id: id, ...r })));
}

export async function insertEntries(
  tx: Tx,
  companyId: number,
  id: number,
  date: string,
  currency: string,
  entries: readonly LedgerLine[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx('ledger_entries').insert(
    entryRows(date, currency, entries).map((r) => ({ company_id: companyId, transaction_id: id, ...r })),
  );
}

/**
 * A reversal's lines: the original's lines with every amount negated, copied inside the
 * database (tax kept as it was: `tax_override`).
 */
export async function copyLinesNegated(tx: Tx, companyId: number, fromId: number, toId: number): Promise<void> {
  await tx.raw(
    `insert into arap_lines (company_id, transaction_id, position, account_id, description, amount, tax_account_id,
       tax_rate, tax_amount, tax_override, net, dimensions)
     select company_id, ?, position, account_id, description, -amount, tax_account_id, tax_rate, -tax_amount, true,
            -net, dimensions
       from arap_lines where company_id = ? and transaction_id = ?`,
    [toId, companyId, fromId],
  );
}

/** The document's own ledger entries (its posting, not its payments'). */
export async function documentEntries(tx: Tx, companyId: number, id: number): Promise<LedgerLine[]> {
  const rows = await tx('ledger_entries')
    .where({ company_id: companyId, transaction_id: id })
    .whereNull('payment_id')
    .select('account_id', 'amount', 'fx_amount', 'kind', 'dimensions');
  return rows.map((e) => ({
    accountId: e.account_id,
    amount: new Money(e.amount),
    fxAmount: new Money(e.fx_amount),
    kind: e.kind as EntryKind,
    dimensions: e.dimensions,
  }));
}

export async function markReversed(tx: Tx, companyId: number, id: number, reversalId: number): Promise<void> {
  await tx('arap_transactions')
    .where({ company_id: companyId, id })
    .update({ status: 'reversed', reversed_by_id: reversalId, updated_at: tx.fn.now() });
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
  /** the document's events, written by the same statement (`DocumentEvents`) */
  events?: DocumentEvents;
}

/**
 * A new document's events as its statement writes them (events' `eventsWrittenWith`): each
 * event without what only the statement knows — its subject is the read path up to the id, its
 * data lacks the number; the statement adds the new document's id and number.
 */
export interface DocumentEvents {
  /** who acted, as an event records it (events' `eventActorJson`) */
  actor: string;
  events: readonly { type: string; subject: string; resource_type: string; data: Record<string, unknown> }[];
}

/** The jsonb array of a new document's events (DocumentEvents), completed from the document made (`h`). */
const DOCUMENT_EVENTS = `(select jsonb_agg(t.doc || jsonb_build_object(
         'subject', (t.doc->>'subject') || h.id, 'resource_id', h.id::text,
         'data', (t.doc->'data') || jsonb_build_object('number', h.inv_number)) order by t.i)
       from h, jsonb_array_elements(?::jsonb) with ordinality as t(doc, i))`;

/**
 * Rows of a table that hangs off a document by `transaction_id` (invoice_items): its name,
 * the SQL type of each column the rows carry, and the rows (company_id and transaction_id
 * are added).
 */
export interface ChildRows {
  table: string;
  columns: JsonColumns;
  /** column → value; an object goes into a jsonb column (a line's dimensions) */
  rows: readonly Record<string, string | number | null | Readonly<Record<string, string>>>[];
}

/** Rows that hang off the document the statement writes (its CTE `h`): company_id and transaction_id set. */
const OF_NEW_DOCUMENT = { company_id: '?', transaction_id: 'h.id' };

/** Replaces a document's child rows (update). */
export async function replaceChildren(tx: Tx, companyId: number, id: number, children: ChildRows): Promise<void> {
  await tx(children.table).where({ company_id: companyId, transaction_id: id }).delete();
  if (children.rows.length > 0)
    await tx.raw(insertJsonRows(children.table, children.columns, { company_id: '?', transaction_id: '?' }), [
      companyId,
      id,
      JSON.stringify(children.rows),
    ]);
}

/**
 * insertDocument's statement, built once per shape and then reused: the text depends only on the
 * header's columns, the numbering (own or from a sequence), the snapshot check, the child table
 * and whether events are written, never on a document's values (those are bindings). A bill's
 * statement is a few kilobytes; built afresh for every request it cost the building, the hashing
 * of a new string to find its prepared statement's name, and a larger function for V8 to compile
 * (docs/benchmarks.md). The shapes are the code's own (columns and checks are constants of the
 * modules that write documents), so the maps stay small; they are cleared if they ever hold 64 checks.
 */
const documentStatements = new Map<string, Map<string, string>>();

function documentStatement(
  columns: readonly string[],
  numbering: string,
  check: string | undefined,
  children: ChildRows | undefined,
  events: boolean,
): string {
  // the check's text is the same string object every time (a constant of ruleContext.ts): a cheap key
  const byCheck = check ?? '';
  const child = children ? `${children.table}:${Object.keys(children.columns).join(',')}` : '';
  const shape = `${numbering}|${columns.join(',')}|${child}|${events}`;
  let byShape = documentStatements.get(byCheck);
  const known = byShape?.get(shape);
  if (known !== undefined) return known;
  if (byShape === undefined) {
    if (documentStatements.size >= 64) documentStatements.clear();
    byShape = new Map();
    documentStatements.set(byCheck, byShape);
  }
  const sql = `with ${check ? `chk as (select ${check} as ok),` : ''} ${numbering}
     h as (
       insert into arap_transactions (company_id, vc, inv_number, ${columns.join(', ')})
       select ?, ?, num.inv_number, ${columns.map(() => '?').join(', ')} from num${check ? ', chk' : ''}
       on conflict (company_id, vc, inv_number) do nothing returning id, inv_number),
     l as (${insertJsonRows('arap_lines', LINE_COLUMNS, OF_NEW_DOCUMENT, 'h')}),
     e as (${insertJsonRows('ledger_entries', ENTRY_COLUMNS, OF_NEW_DOCUMENT, 'h')}),
     a as (
       insert into audit_log (company_id, user_id, via, via_id, via_label, entity, entity_id, action, details)
       select ?, ?, ?, ?, ?, ?, h.id::text, ?, jsonb_build_object('invNumber', h.inv_number) || ?::jsonb from h)
     ${children ? `, c as (${insertJsonRows(children.table, children.columns, OF_NEW_DOCUMENT, 'h')})` : ''}
     ${events ? `, ${eventsWrittenWith('h', DOCUMENT_EVENTS)}` : ''}
     ${events ? 'select h.id, h.inv_number, w.wake from h, ev_written w' : 'select id, inv_number from h'}`;
  byShape.set(shape, sql);
  return sql;
}

/**
 * Writes a new document in one statement: the number (from the sequence, formatted as
 * formatNumber does), header, lines, ledger lines (when posted) and the audit entry. The
 * sequence row is locked only from here to the commit, so concurrent creates queue for it
 * as briefly as possible. Undefined when the number is taken (then nothing was written;
 * a sequence value was used up, so calling again takes the next one).
 */
export async function insertDocument(
  tx: Tx,
  company: Company,
  vc: Vc,
  doc: NewDocument,
  /** the caller sends nothing after it: the statement may carry the transaction's COMMIT (closingQuery) */
  closing = false,
  /**
   * an SQL expression (with its bindings) the statement evaluates before it writes: the check that the
   * remembered rule snapshot the document was computed from still holds (ruleContext.ts `recallRuleContext`)
   */
  check?: { sql: string; bindings: readonly unknown[] },
): Promise<{
  created: { id: number; invNumber: string; wake: { subscription_id: number; queue: string }[] } | undefined;
  /** the statement committed the transaction */
  closed: boolean;
}> {
  const header = headerValues(doc.resolved, doc.posting, doc.fields);
  const columns = Object.keys(header);
  const entries =
    doc.fields.status === 'posted' ? entryRows(doc.resolved.invDate, doc.resolved.currency, doc.posting.entries) : [];
  const a = doc.audit;
  const numbering = numberingCte(company, doc.number, 'inv_number');
  const sql = documentStatement(columns, numbering.sql, check?.sql, doc.children, doc.events !== undefined);
  const n = doc.events?.events.length ?? 0;
  const values = [
    ...(check?.bindings ?? []),
    ...numbering.bindings,
    company.id,
    vc,
    ...columns.map((c) => (header as Record<string, Knex.Value>)[c]),
    company.id,
    JSON.stringify(lineRows(doc.resolved.posting.lines, doc.posting)),
    company.id,
    JSON.stringify(entries),
    a.company_id,
    a.user_id,
    a.via,
    a.via_id,
    a.via_label,
    a.entity,
    a.action,
    a.details ?? '{}',
    ...(doc.children ? [company.id, JSON.stringify(doc.children.rows)] : []),
    ...(doc.events ? [company.id, n, n, n, company.id, doc.events.actor, JSON.stringify(doc.events.events)] : []),
  ];
  type Row = { id: number; inv_number: string; wake?: { subscription_id: number; queue: string }[] };
  const { rows, closed } = closing
    ? await closingQuery<Row>(tx, sql, values)
    : { rows: (await preparedQuery<Row>(tx, sql, values)).rows, closed: false };
  const row = rows[0];
  return { created: row && { id: row.id, invNumber: row.inv_number, wake: row.wake ?? [] }, closed };
}

export async function deleteEntries(tx: Tx, companyId: number, id: number): Promise<void> {
  // the document's own lines; lines of its (reversed) payments carry payment_id and stay
  await tx('ledger_entries').where({ company_id: companyId, transaction_id: id }).whereNull('payment_id').delete();
}

/**
 * Attaches files to a document, once per name and content (files/store.ts `attachFiles`). Returns how many were added.
 */
export async function insertFiles(
  tx: Tx,
  companyId: number,
  id: number,
  files: readonly FileContent[],
): Promise<number> {
  return attachFiles(tx, companyId, 'arap_files', id, files);
}

/** Removes one attachment of a document; its metadata, or undefined when the document has no such file. */
export async function deleteFile(
  tx: Tx,
  companyId: number,
  id: number,
  fileId: number,
): Promise<{ name: string; media_type: string; size: number; sha256: string } | undefined> {
  const [row] = await tx('arap_files')
    .where({ company_id: companyId, id: fileId, transaction_id: id })
    .delete()
    .returning(['name', 'media_type', 'size', 'sha256']);
  return row;
}

export async function deleteHeader(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('arap_transactions').where({ company_id: companyId, id }).delete();
}

/** The numbers among `numbers` that documents of the side already have. */
export async function takenDocumentNumbers(
  tx: Tx,
  companyId: number,
  vc: Vc,
  numbers: readonly string[],
): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await tx('arap_transactions')
    .where({ company_id: companyId, vc })
    .whereIn('inv_number', numbers)
    .pluck('inv_number');
  return new Set(rows);
}

/** The header columns a batch writes (headerValues' and the numbering's), as a statement writing them from JSON. */
const BATCH_HEADER_COLUMNS: JsonColumns = {
  vc: 'text',
  inv_number: 'text',
  party_id: 'bigint',
  document_number: 'text',
  inv_date: 'date',
  due_date: 'date',
  currency: 'text',
  exchangerate: 'numeric',
  record_account_id: 'bigint',
  description: 'text',
  taxincluded: 'boolean',
  status: 'text',
  payment_file: 'boolean',
  vc_bank_id: 'bigint',
  payment_reference: 'text',
  net_amount: 'numeric',
  tax_amount: 'numeric',
  amount: 'numeric',
  posted_at: 'timestamptz',
  type: 'text',
};

/** One document of a batch as it is stored. */
export interface BatchDocument {
  invNumber: string;
  resolved: ResolvedTransaction;
  posting: Posting;
  fields: HeaderFields;
}

/**
 * Writes a batch of documents (docs/batches.md) with one statement per table: the rows
 * insertDocument writes for a single document. Lines and ledger lines travel as one JSON document
 * each, and so do the headers, so a batch is not bound by a statement's 65,535 parameters (a dunning
 * run books 10,000 fees as one batch). Returns the ids in the order
 * of `docs`, or for each document whose number another transaction took meanwhile (between the
 * check and this insert) undefined: the caller refuses the batch then, which rolls back what was
 * written.
 */
export async function insertDocumentBatch(
  tx: Tx,
  companyId: number,
  vc: Vc,
  docs: readonly BatchDocument[],
  postedAt: Date,
): Promise<(number | undefined)[]> {
  // in the order of the numbers: two batches giving the same numbers by hand wait for each other on the unique
  // index in one order (the later one is refused), instead of each holding a number the other waits for (a deadlock)
  const byNumber = [...docs].sort((x, y) => (x.invNumber < y.invNumber ? -1 : x.invNumber > y.invNumber ? 1 : 0));
  const headers = byNumber.map((d) => {
    const header = headerValues(d.resolved, d.posting, d.fields);
    const unknown = Object.keys(header).filter((k) => !(k in BATCH_HEADER_COLUMNS));
    if (unknown.length > 0) throw new Error(`a batch writes no header column ${unknown.join(', ')}`);
    return { ...header, posted_at: header.posted_at && postedAt, vc, inv_number: d.invNumber };
  });
  // one JSON parameter, whatever the count (a dunning run's 10,000 fees); rows in the order of the numbers
  const { rows: created } = await tx.raw<{ rows: { id: number; inv_number: string }[] }>(
    `${insertJsonRows('arap_transactions', BATCH_HEADER_COLUMNS, { company_id: '?' })}
     on conflict (company_id, vc, inv_number) do nothing returning id, inv_number`,
    [companyId, JSON.stringify(headers)],
  );
  const idOf = new Map(created.map((r) => [r.inv_number, r.id]));
  const ids = docs.map((d) => idOf.get(d.invNumber));
  if (ids.includes(undefined)) return ids;

  const ofCompany = { company_id: '?' };
  const lines = docs.flatMap((d, i) =>
    lineRows(d.resolved.posting.lines, d.posting).map((l) => ({ transaction_id: ids[i], ...l })),
  );
  await tx.raw(insertJsonRows('arap_lines', { transaction_id: 'bigint', ...LINE_COLUMNS }, ofCompany), [
    companyId,
    JSON.stringify(lines),
  ]);
  const entries = docs.flatMap((d, i) =>
    d.fields.status === 'posted'
      ? entryRows(d.resolved.invDate, d.resolved.currency, d.posting.entries).map((e) => ({
          transaction_id: ids[i],
          ...e,
        }))
      : [],
  );
  if (entries.length > 0) {
    // one statement: the ledger_balances trigger runs once for the whole batch
    await tx.raw(insertJsonRows('ledger_entries', { transaction_id: 'bigint', ...ENTRY_COLUMNS }, ofCompany), [
      companyId,
      JSON.stringify(entries),
    ]);
  }
  return ids;
}
