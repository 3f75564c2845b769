import { amountJson, formatAmount, Money, requestsPosting, type TransactionInput } from '@ledger/shared';
import type { Knex } from 'knex';
import { mayRunAgain, RunAgain, type Tx } from '../../db/knex.ts';
import { closedUntil, type Company } from '../../db/companies.ts';
import { auditRow, recordAudit } from '../../db/audit.ts';
import { loadRuleContext, type RecalledContext, recallRuleContext } from './ruleContext.ts';
import { readFile, readTransaction, type ReadOptions, type TransactionRead } from './reads.ts';
import {
  copyLinesNegated,
  deleteEntries,
  documentEntries,
  deleteFile,
  deleteHeader,
  hasPayments,
  insertDocument,
  type DocumentEvents,
  insertEntries,
  insertFiles,
  insertHeader,
  lockHeader,
  markReversed,
  numberTaken,
  replaceChildren,
  replaceLines,
  sequenceKind,
  updateHeader,
  type ChildRows,
  type DocumentType,
  type HeaderRow,
} from './store.ts';
import type { Actor } from '../../domain/actor.ts';
import type { FileContent } from './dataUri.ts';
import { roleHas, type Permission } from '@ledger/shared';
import { computePosting, exceedsApprovalLimit, reverseEntries, type Posting, type Vc } from './posting.ts';
import { conflict, DomainError, forbidden, notFound, ruleInvalid } from '../../domain/errors.ts';
import { resolveTransaction, type ResolvedTransaction, type RuleContext } from './rules.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { eventActorJson, recordEvents, wakeSubscribers, type EventInput } from '../events/index.ts';
import type { EventType } from '@ledger/shared';

/**
 * The AR/AP transaction workflow (docs/posting.md "States"): create as draft or
 * posted, update (lines replaced), approve (save, then post), delete drafts, reverse
 * posted documents. Each function runs inside the request's single tenant transaction,
 * so a refused request writes nothing.
 */
export interface WriteContext {
  tx: Tx;
  company: Company;
  actor: Actor;
  vc: Vc;
  read: ReadOptions;
  /** the kind of document the workflow handles; default AR/AP transactions */
  kind?: DocumentKind;
}

/**
 * What differs between the document kinds that share this workflow (AR/AP transactions
 * here, invoices in modules/invoices): the `type` column, the noun in messages, the
 * audit entity, the read shape, and what a reversal copies besides header and lines.
 */
export interface DocumentKind {
  type: DocumentType;
  noun: string;
  entity(vc: Vc): string;
  read(tx: Tx, companyId: number, vc: Vc, id: number, opts: ReadOptions): Promise<TransactionRead | undefined>;
  /** copies the kind's own rows of a reversed document to its reversal (negated) */
  copyToReversal?(tx: Tx, companyId: number, fromId: number, toId: number): Promise<void>;
}

export const TRANSACTION_KIND: DocumentKind = {
  type: 'transaction',
  noun: 'transaction',
  entity: (vc) => `${vc}_transaction`,
  read: readTransaction,
};

const kindOf = (c: WriteContext): DocumentKind => c.kind ?? TRANSACTION_KIND;

export interface DocumentWrite {
  /** the document as lines (an invoice's items already turned into lines) */
  input: TransactionInput;
  files: FileContent[];
  /** the kind's own header columns (invoice fields) */
  typeColumns?: Readonly<Record<string, Knex.Value>>;
  /**
   * The kind's own child rows (invoice items): written in the create statement itself (so
   * numbering holds its lock no longer than for a transaction), replaced on update.
   */
  children?: ChildRows;
}

/** Posting changes the books: it needs the side's approve permission besides the posting permission. */
export function requireApprover(actor: Actor, vc: Vc): void {
  const permission = `${vc}s.postings.approve` as Permission;
  if (!roleHas(actor.role, permission)) {
    throw forbidden(
      `Posting needs permission ${permission} (role ${actor.role}); save the document as a draft instead.`,
    );
  }
}

async function prepare(
  c: WriteContext,
  input: TransactionInput,
  posting: boolean,
): Promise<{ resolved: ResolvedTransaction; computed: Posting; subscribed: boolean }> {
  if (posting) requireApprover(c.actor, c.vc);
  const ctx = await loadRuleContext(c.tx, c.company, c.vc, input);
  return { ...check(c, input, posting, ctx), subscribed: ctx.subscribed };
}

/**
 * prepare against the snapshot remembered for the same parameters (ruleContext.ts
 * `recallRuleContext`), when there is one, it has no subscription to wake, and the rules accept the
 * document against it: then the document's statement checks the snapshot instead of a round trip
 * reading it. Anything else — nothing remembered, a refusal (which must come from what the database
 * holds now, never from a remembered row) — is left to prepare.
 */
function prepareRemembered(
  c: WriteContext,
  input: TransactionInput,
  posting: boolean,
): (ReturnType<typeof check> & { recalled: RecalledContext }) | undefined {
  const recalled = recallRuleContext(c.company, c.vc, input);
  if (!recalled || recalled.context.subscribed) return undefined;
  try {
    if (posting) requireApprover(c.actor, c.vc);
    return { ...check(c, input, posting, recalled.context), recalled };
  } catch (e) {
    if (e instanceof DomainError) return undefined;
    throw e;
  }
}

/** The rules, the posting math and the approval limit, against a loaded snapshot (a batch checks each document). */
export function check(
  c: WriteContext,
  input: TransactionInput,
  posting: boolean,
  ctx: RuleContext,
): { resolved: ResolvedTransaction; computed: Posting } {
  const resolved = resolveTransaction(c.vc, input, ctx);
  const computed = computePosting(resolved.posting);
  if (posting && exceedsApprovalLimit(computed.baseGross, c.actor.approvalLimit)) {
    const base = c.company.base_currency.trim();
    throw new DomainError(
      'amount_exceeded',
      `The document's gross amount of ${formatAmount(computed.baseGross, base)} exceeds your approval limit of ` +
        `${formatAmount(c.actor.approvalLimit!, base)}; save it as a draft instead.`,
    );
  }
  return { resolved, computed };
}

async function lockOrNotFound(c: WriteContext, id: number): Promise<HeaderRow> {
  const kind = kindOf(c);
  const row = await lockHeader(c.tx, c.company.id, c.vc, id, kind.type);
  if (!row) throw notFound(`No ${c.vc} ${kind.noun} with id ${id}.`);
  return row;
}

async function assertOpen(c: WriteContext, date: string, field?: string): Promise<void> {
  const closed = await closedUntil(c.tx, c.company.id);
  assertOpenPeriod(date, closed, field);
}

/** A customer document's event (`invoice.…`) or a vendor document's (`bill.…`). */
export function documentEventOf(
  vc: Vc,
  what: 'created' | 'posted' | 'approved' | 'reversed',
  id: number,
  snapshot: Record<string, unknown>,
): EventInput {
  const resource = vc === 'customer' ? 'invoice' : 'bill';
  return {
    type: `${resource}.${what}` as `${typeof resource}.${typeof what}` & EventType,
    resource: { type: resource, id, path: `${documentPathOf(vc)}${id}` },
    snapshot,
  };
}

/** A document's read path up to its id (relative to the company's base URL). */
const documentPathOf = (vc: Vc) => `/arap/document/${vc}/`;

/**
 * A new document's events (`created`, and `posted` when it posts), written by the document's
 * own statement (store's DocumentEvents): one round trip less than writing them after it. The
 * statement adds the id to the subject and the number to the data (createdSnapshot).
 */
function createdEvents(
  c: WriteContext,
  what: readonly ('created' | 'posted')[],
  resolved: ResolvedTransaction,
  computed: Posting,
  status: string,
): DocumentEvents {
  const { number: _, ...data } = createdSnapshot('', resolved, computed, status);
  return {
    actor: eventActorJson(c.actor),
    events: what.map((w) => {
      const event = documentEventOf(c.vc, w, 0, data);
      return { type: event.type, subject: documentPathOf(c.vc), resource_type: event.resource.type, data };
    }),
  };
}

/**
 * A document's events, in the order given, last in its transaction (the event sequence is
 * locked from there to the commit): one statement for all of them.
 */
async function documentEvent(
  c: WriteContext,
  what: readonly ('created' | 'posted' | 'approved' | 'reversed')[],
  id: number,
  snapshot: Record<string, unknown>,
): Promise<void> {
  await recordEvents(
    c.tx,
    c.company.id,
    c.actor,
    what.map((w) => documentEventOf(c.vc, w, id, snapshot)),
  );
}

/** The details of a new document's audit entry (the store adds its number, `invNumber`). */
export function createdDetails(resolved: ResolvedTransaction, computed: Posting, status: string, files: number) {
  return { status, currency: resolved.currency, gross: amountJson(computed.gross, resolved.currency), files };
}

/** The snapshot of a new document's events (`….created`, `….posted`). */
export function createdSnapshot(invNumber: string, resolved: ResolvedTransaction, computed: Posting, status: string) {
  return {
    number: invNumber,
    date: resolved.invDate,
    amount: computed.gross.toString(),
    currency: resolved.currency,
    status,
  };
}

/**
 * Create: two statements inside the request's transaction — the snapshot the rules need,
 * and one statement numbering and writing header, lines, ledger lines, audit entry and events.
 *
 * `last`: the caller sends nothing after this in its transaction, and may run again (a route
 * handler whose answer is the new id). Then, when no file is attached after the statement and
 * the company has no webhook subscription to wake, the document's statement carries the
 * transaction's COMMIT (closingQuery): one message less. A subscription made between the
 * snapshot and the statement finds its delivery queued without its wake-up, which the webhook
 * worker's sweep makes good (modules/events/worker.ts).
 */
export async function createTransaction(
  c: WriteContext,
  doc: DocumentWrite,
  options: { last?: boolean } = {},
): Promise<{ id: number; invNumber: string; status: string }> {
  const posting = requestsPosting(doc.input);
  // the whole request in one message (the snapshot checked in the document's statement),
  // where the transaction may close there and run again
  const closable = options.last === true && doc.files.length === 0;
  const fromMemory = closable && mayRunAgain(c.tx) ? prepareRemembered(c, doc.input, posting) : undefined;
  const { resolved, computed, subscribed } = fromMemory
    ? { ...fromMemory, subscribed: false }
    : await prepare(c, doc.input, posting);
  const status = posting ? 'posted' : 'draft';
  const kind = kindOf(c);
  const fields = {
    documentNumber: doc.input.documentNumber ?? null,
    description: doc.input.description ?? null,
    status,
    typeColumns: { type: kind.type, ...doc.typeColumns },
  } as const;
  const own = doc.input.invNumber;
  const audit = auditRow(
    c.company.id,
    c.actor,
    kind.entity(c.vc),
    null,
    posting ? 'create_posted' : 'create',
    createdDetails(resolved, computed, status, doc.files.length),
  );
  const number = own === undefined ? { sequence: sequenceKind(c.vc) } : { own };
  const closing = closable && !subscribed;
  // a taken explicit number is a conflict; a sequence number already used by hand is skipped
  for (let attempt = 0; attempt < 1000; attempt++) {
    const { created, closed } = await insertDocument(
      c.tx,
      c.company,
      c.vc,
      {
        number,
        resolved,
        posting: computed,
        fields,
        audit,
        ...(doc.children ? { children: doc.children } : {}),
        events: createdEvents(c, posting ? ['created', 'posted'] : ['created'], resolved, computed, status),
      },
      closing,
      fromMemory?.recalled.check,
    ).catch((e: unknown) => {
      // the remembered snapshot changed: the run again reads it afresh
      if (e instanceof RunAgain) fromMemory?.recalled.forget();
      throw e;
    });
    if (created) {
      if (!closed) {
        await insertFiles(c.tx, c.company.id, created.id, doc.files);
        await wakeSubscribers(c.tx, c.company.id, created.wake);
      }
      return { id: created.id, invNumber: created.invNumber, status };
    }
    if (own !== undefined) throw numberTaken(own);
    // the statement committed with only its sequence number used: the next one, in a new transaction
    if (closed) throw new RunAgain();
  }
  throw new Error('no free document number found');
}

/** Saves the complete document over an existing one: header, lines and (when posted) ledger lines. */
async function saveOver(
  c: WriteContext,
  current: HeaderRow,
  doc: DocumentWrite,
  posting: boolean,
  action: string,
): Promise<void> {
  const kind = kindOf(c);
  const { resolved, computed } = await prepare(c, doc.input, posting);
  const previous = await kind.read(c.tx, c.company.id, c.vc, current.id, c.read);
  await updateHeader(c.tx, c.company.id, current.id, c.vc, current, doc.input.invNumber, resolved, computed, {
    documentNumber: doc.input.documentNumber ?? null,
    description: doc.input.description ?? null,
    status: posting ? 'posted' : 'draft',
    typeColumns: doc.typeColumns,
  });
  await replaceLines(c.tx, c.company.id, current.id, resolved.posting.lines, computed, true);
  await deleteEntries(c.tx, c.company.id, current.id);
  if (posting)
    await insertEntries(c.tx, c.company.id, current.id, resolved.invDate, resolved.currency, computed.entries);
  if (doc.children) await replaceChildren(c.tx, c.company.id, current.id, doc.children);
  await insertFiles(c.tx, c.company.id, current.id, doc.files);
  await recordAudit(c.tx, c.company.id, c.actor, kind.entity(c.vc), current.id, action, { previous });
  if (action === 'approve') {
    const snapshot = {
      number: doc.input.invNumber ?? current.inv_number,
      amount: computed.gross.toString(),
      currency: resolved.currency,
    };
    await documentEvent(c, c.vc === 'vendor' ? ['approved', 'posted'] : ['posted'], current.id, snapshot);
  }
}

async function assertChangeable(c: WriteContext, row: HeaderRow): Promise<void> {
  const noun = capitalized(kindOf(c).noun);
  if (row.status === 'reversed') throw conflict(`${noun} ${row.id} is reversed and cannot be changed.`);
  if (row.reversal_of_id !== null) throw conflict(`${noun} ${row.id} reverses another document and cannot be changed.`);
  if (row.status === 'posted' && (await hasPayments(c.tx, row))) {
    throw conflict(`${noun} ${row.id} has payments and cannot be changed; reverse it instead.`);
  }
}

/** POST /{id}: a draft stays a draft unless `pending: "0"` posts it; a posted document is re-posted. */
export async function updateTransaction(c: WriteContext, id: number, doc: DocumentWrite): Promise<TransactionRead> {
  const row = await lockOrNotFound(c, id);
  await assertChangeable(c, row);
  await assertOpen(c, row.inv_date);
  const posting = row.status === 'posted' || requestsPosting(doc.input);
  await saveOver(c, row, doc, posting, row.status === 'draft' && posting ? 'approve' : 'update');
  return (await kindOf(c).read(c.tx, c.company.id, c.vc, id, c.read))!;
}

/** POST /{id}/approve: saves the complete document sent, then posts it. */
export async function approveTransaction(c: WriteContext, id: number, doc: DocumentWrite): Promise<TransactionRead> {
  const row = await lockOrNotFound(c, id);
  if (row.status !== 'draft')
    throw conflict(`${capitalized(kindOf(c).noun)} ${id} is ${row.status}; only drafts can be approved.`);
  await assertOpen(c, row.inv_date);
  await saveOver(c, row, doc, true, 'approve');
  return (await kindOf(c).read(c.tx, c.company.id, c.vc, id, c.read))!;
}

export async function transactionById(c: WriteContext, id: number): Promise<TransactionRead> {
  const kind = kindOf(c);
  const doc = await kind.read(c.tx, c.company.id, c.vc, id, c.read);
  if (!doc) throw notFound(`No ${c.vc} ${kind.noun} with id ${id}.`);
  return doc;
}

/** An attachment for download: its name, media type and bytes. */
export async function transactionFile(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  fileId: number,
  kind: DocumentKind = TRANSACTION_KIND,
): Promise<{ name: string; media_type: string; data: Buffer }> {
  const file = await readFile(tx, companyId, vc, id, fileId, kind.type);
  if (!file) throw notFound(`No file ${fileId} on ${vc} ${kind.noun} ${id}.`);
  return file;
}

export async function deleteTransaction(c: WriteContext, id: number): Promise<void> {
  const row = await lockOrNotFound(c, id);
  const kind = kindOf(c);
  if (row.status !== 'draft') {
    throw conflict(
      `${capitalized(kind.noun)} ${id} is ${row.status}; only drafts can be deleted (reverse a posted document).`,
    );
  }
  await assertOpen(c, row.inv_date);
  const previous = await kind.read(c.tx, c.company.id, c.vc, id, c.read);
  await deleteHeader(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, kind.entity(c.vc), id, 'delete', { previous });
}

/**
 * DELETE /{id}/files/{fileId}: the same conditions as updating the document — a draft, or a
 * posted document without payments (then the approve permission too), not reversed and
 * not a reversal, in an open period. Audited on the document.
 */
export async function deleteTransactionFile(c: WriteContext, id: number, fileId: number): Promise<void> {
  const row = await lockOrNotFound(c, id);
  await assertChangeable(c, row);
  if (row.status === 'posted') requireApprover(c.actor, c.vc);
  await assertOpen(c, row.inv_date);
  const file = await deleteFile(c.tx, c.company.id, id, fileId);
  if (!file) throw notFound(`No file ${fileId} on ${c.vc} ${kindOf(c).noun} ${id}.`);
  await recordAudit(c.tx, c.company.id, c.actor, kindOf(c).entity(c.vc), id, 'delete_file', {
    file_id: fileId,
    name: file.name,
    media_type: file.media_type,
    size: file.size,
    sha256: file.sha256,
  });
}

/**
 * POST /{id}/reverse: a new posted document dated `date` with every line negated and
 * ledger lines that exactly cancel the original's; the original becomes `reversed`.
 */
export async function reverseTransaction(
  c: WriteContext,
  id: number,
  opts: { date: string; description?: string },
): Promise<{ id: number; invNumber: string }> {
  const row = await lockOrNotFound(c, id);
  const kind = kindOf(c);
  const noun = capitalized(kind.noun);
  if (row.status !== 'posted') throw conflict(`${noun} ${id} is ${row.status}; only posted documents can be reversed.`);
  if (row.reversal_of_id !== null) throw conflict(`${noun} ${id} is itself a reversal.`);
  if (await hasPayments(c.tx, row)) throw conflict(`${noun} ${id} has payments; reverse the payments first.`);
  if (opts.date < row.inv_date)
    throw ruleInvalid(`The reversal date must not lie before the document date ${row.inv_date}.`, '/date');
  await assertOpen(c, opts.date, '/date');

  const neg = (v: string) => new Money(v).negated().toString();
  const { id: reversalId, invNumber } = await insertHeader(c.tx, c.company, c.vc, undefined, {
    type: row.type,
    party_id: row.party_id,
    document_number: row.document_number,
    inv_date: opts.date,
    due_date: null,
    currency: row.currency,
    exchangerate: row.exchangerate,
    record_account_id: row.record_account_id,
    description: opts.description ?? `Reversal of ${row.inv_number}`,
    taxincluded: row.taxincluded,
    status: 'posted',
    reversal_of_id: row.id,
    payment_file: false,
    vc_bank_id: null,
    net_amount: neg(row.net_amount),
    tax_amount: neg(row.tax_amount),
    amount: neg(row.amount),
    posted_at: c.tx.fn.now(),
  });
  await copyLinesNegated(c.tx, c.company.id, row.id, reversalId);
  await kind.copyToReversal?.(c.tx, c.company.id, row.id, reversalId);
  const reversed = reverseEntries(await documentEntries(c.tx, c.company.id, row.id));
  await insertEntries(c.tx, c.company.id, reversalId, opts.date, row.currency, reversed);
  await markReversed(c.tx, c.company.id, row.id, reversalId);
  await recordAudit(c.tx, c.company.id, c.actor, kind.entity(c.vc), row.id, 'reverse', {
    reversal_id: reversalId,
    date: opts.date,
  });
  await recordAudit(c.tx, c.company.id, c.actor, kind.entity(c.vc), reversalId, 'create_reversal', {
    reversal_of: row.id,
    invNumber,
  });
  await documentEvent(c, ['reversed'], row.id, {
    number: row.inv_number,
    reversal_id: reversalId,
    reversal_number: invNumber,
  });
  return { id: reversalId, invNumber };
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
