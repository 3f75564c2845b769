import { amountJson, Money, requestsPosting, type BatchProblem, type JournalEntryInput } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { closedUntil } from '../../db/companies.ts';
import { auditRow, recordAudit, recordAudits } from '../../db/audit.ts';
import { BatchRefused, conflict, DomainError, notFound, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import type { FileContent } from '../arap/index.ts';
import { namesDimensions } from '../dimensions/index.ts';
import { refuseIfReconciled } from '../bank/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { readJournal, readJournalFile, type JournalRead } from './reads.ts';
import { referencedAccounts, resolveJournal, type ResolvedJournal } from './rules.ts';
import {
  deleteJournal,
  freeJournalReferences,
  insertJournalBatch,
  insertJournalEntries,
  insertJournalEntry,
  insertJournalFiles,
  insertJournalHeader,
  insertJournalHeaderIfFree,
  journalLines,
  loadJournalContext,
  lockJournal,
  referenceInUse,
  referenceTaken,
  takenReferences,
  updateJournalHeader,
  writeLines,
  type JournalLineRow,
  type JournalRow,
} from './store.ts';
import { recordEvents } from '../events/index.ts';

/**
 * The journal-entry workflow (docs/journal.md): create as draft or posted,
 * replace a draft (posting it with pending "0"), delete drafts, reverse posted entries.
 * Everything runs inside the request's tenant transaction, so a refused request writes
 * nothing. Closing entries of fiscal years are written by modules/fiscalYears through
 * `postEntry` and `reverseEntry`; the endpoints here refuse to change them.
 */
export interface JournalContext extends ServiceContext {
  /** absolute URL of `/client/{dataset}/gl/transactions`, for the files' download URLs */
  fileUrlBase: string;
}

export interface JournalWrite {
  input: JournalEntryInput;
  files: FileContent[];
}

export const JOURNAL_ENTITY = 'journal_entry';

async function resolve(c: ServiceContext, input: JournalEntryInput): Promise<ResolvedJournal> {
  const withDimensions = namesDimensions(input.lines);
  return resolveJournal(input, await loadJournalContext(c.tx, c.company, referencedAccounts(input), withDimensions));
}

const lineRows = (r: ResolvedJournal): JournalLineRow[] =>
  r.lines.map((l) => ({
    accountId: l.accountId,
    description: l.description,
    debit: l.debit,
    credit: l.credit,
    baseAmount: l.baseAmount,
    dimensions: l.dimensions,
  }));

function headerValues(r: ResolvedJournal, posting: boolean) {
  return {
    transdate: r.transdate,
    description: r.description,
    currency: r.currency,
    exchangerate: r.exchangerate.toString(),
    status: posting ? 'posted' : 'draft',
    posted_at: posting ? new Date() : null,
  };
}

async function lockOrNotFound(tx: Tx, companyId: number, id: number): Promise<JournalRow> {
  const row = await lockJournal(tx, companyId, id);
  if (!row) throw notFound(`No journal entry with id ${id}.`);
  return row;
}

async function assertOpen(c: ServiceContext, date: string, field?: string): Promise<void> {
  assertOpenPeriod(date, await closedUntil(c.tx, c.company.id), field);
}

function assertNotClosing(row: JournalRow, what: string): void {
  if (row.closing) {
    throw conflict(
      `Journal entry ${row.id} is the closing entry of fiscal year ${row.fiscal_year}; it ${what} only by ` +
        `reopening the year (POST /system/close_books with reopen).`,
    );
  }
}

const summary = (r: ResolvedJournal) => ({
  currency: r.currency,
  lines: r.lines.length,
  debit: amountJson(
    r.lines.reduce((a, l) => a.plus(l.debit), new Money(0)),
    r.currency,
  ),
});

/** journal_entry.posted's snapshot (docs/events.md): the debit total as a decimal string, as events carry amounts. */
const postedSnapshot = (reference: string, r: ResolvedJournal) => ({
  reference,
  transdate: r.transdate,
  currency: r.currency,
  lines: r.lines.length,
  debit: r.lines.reduce((a, l) => a.plus(l.debit), new Money(0)).toString(),
});

/** A journal entry's event, last in its transaction (the event sequence is locked from here to the commit). */
async function journalEvent(
  c: ServiceContext,
  type: 'journal_entry.posted' | 'journal_entry.reversed',
  id: number,
  snapshot: Record<string, unknown>,
): Promise<void> {
  await journalEvents(c, [{ type, id, snapshot }]);
}

/** Journal entries' events in one statement (a batch's postings), last in the transaction as one alone. */
async function journalEvents(
  c: ServiceContext,
  events: readonly {
    type: 'journal_entry.posted' | 'journal_entry.reversed';
    id: number;
    snapshot: Record<string, unknown>;
  }[],
): Promise<void> {
  await recordEvents(
    c.tx,
    c.company.id,
    c.actor,
    events.map(({ type, id, snapshot }) => ({
      type,
      resource: { type: 'journal_entry', id, path: `/gl/transactions/${id}` },
      snapshot,
    })),
  );
}

export async function createJournalEntry(
  c: ServiceContext,
  doc: JournalWrite,
): Promise<{ id: number; reference: string }> {
  const posting = requestsPosting(doc.input);
  const resolved = await resolve(c, doc.input);
  const details = { status: posting ? 'posted' : 'draft', ...summary(resolved) };
  const action = posting ? 'create_posted' : 'create';
  // without files the audit entry is written with the entry (files: 0); with files after
  // them, since it counts the files attached (equal ones once)
  const withAudit = doc.files.length === 0;
  const entry = {
    values: { ...headerValues(resolved, posting), created_by: c.actor.userId },
    lines: lineRows(resolved),
    ...(posting ? { entries: { transdate: resolved.transdate, currency: resolved.currency } } : {}),
    ...(withAudit
      ? { audit: auditRow(c.company.id, c.actor, JOURNAL_ENTITY, null, action, { ...details, files: 0 }) }
      : {}),
  };
  // one statement for number, header, lines, ledger lines (and audit entry); a sequence
  // number already taken by hand is skipped, a taken reference sent is a conflict
  let created: { id: number; reference: string } | undefined;
  for (let attempt = 0; attempt < 1000 && !created; attempt++) {
    created = await insertJournalEntry(c.tx, c.company, doc.input.reference, entry);
    if (!created && doc.input.reference !== undefined) throw referenceTaken(doc.input.reference);
  }
  if (!created) throw new Error('no free journal reference found');
  const { id, reference } = created;
  if (!withAudit) {
    const files = await insertJournalFiles(c.tx, c.company.id, id, doc.files);
    await recordAudit(c.tx, c.company.id, c.actor, JOURNAL_ENTITY, id, action, { reference, ...details, files });
  }
  if (posting) await journalEvent(c, 'journal_entry.posted', id, postedSnapshot(reference, resolved));
  return { id, reference };
}

/**
 * POST /gl/transactions/batch (docs/batches.md): many entries, each exactly as createJournalEntry
 * books it (same rules, rows and audit entry), written all or nothing. Every entry is resolved
 * against one snapshot of the accounts before anything is written; a refusal lists every bad
 * entry. The references the entries leave out are taken from the GL sequence in one step, in
 * input order; the rows go in with one statement per table.
 */
export async function createJournalEntries(c: ServiceContext, inputs: readonly JournalEntryInput[]): Promise<number[]> {
  const accnos = [...new Set(inputs.flatMap(referencedAccounts))];
  const context = await loadJournalContext(
    c.tx,
    c.company,
    accnos,
    inputs.some((i) => namesDimensions(i.lines)),
  );
  const problems: BatchProblem[] = [];
  const resolved = inputs.map((input, index) => {
    try {
      return resolveJournal(input, context);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      problems.push({ index, field: err.field ?? '', code: err.code, message: err.message });
      return undefined;
    }
  });
  const given = inputs.map((i) => i.reference).filter((r): r is string => r !== undefined);
  const taken = await takenReferences(c.tx, c.company.id, given);
  const seen = new Set<string>();
  inputs.forEach(({ reference }, index) => {
    if (reference === undefined) return;
    if (taken.has(reference) || seen.has(reference)) {
      const { code, message, field } = referenceTaken(reference);
      const where = taken.has(reference) ? message : `Journal entry reference ${reference} is used twice in the batch.`;
      problems.push({ index, field: field ?? '/reference', code, message: where });
    }
    seen.add(reference);
  });
  if (problems.length > 0) throw new BatchRefused(problems.sort((a, b) => a.index - b.index));

  const numbers = await freeJournalReferences(c.tx, c.company, inputs.length - given.length, seen);
  const postedAt = new Date();
  const entries = inputs.map((input, i) => {
    const r = resolved[i]!;
    const posting = requestsPosting(input);
    return {
      reference: input.reference ?? numbers.shift()!,
      header: { ...headerValues(r, posting), posted_at: posting ? postedAt : null, created_by: c.actor.userId },
      lines: lineRows(r),
      posting: posting ? { transdate: r.transdate, currency: r.currency } : null,
      summary: summary(r),
    };
  });
  const ids = await insertJournalBatch(c.tx, c.company.id, entries);
  await recordAudits(
    c.tx,
    entries.map((e, i) => {
      const status = e.posting ? 'posted' : 'draft';
      const action = e.posting ? 'create_posted' : 'create';
      const details = { reference: e.reference, status, ...e.summary, files: 0 };
      return auditRow(c.company.id, c.actor, JOURNAL_ENTITY, ids[i]!, action, details);
    }),
  );
  await journalEvents(
    c,
    entries.flatMap((e, i) =>
      e.posting
        ? [{ type: 'journal_entry.posted' as const, id: ids[i]!, snapshot: postedSnapshot(e.reference, resolved[i]!) }]
        : [],
    ),
  );
  return ids;
}

/**
 * POST /{id}: replaces a draft with the complete entry; pending "0" posts it. Posted, reversed and closing entries →
 * 409.
 */
export async function updateJournalEntry(c: JournalContext, id: number, doc: JournalWrite): Promise<JournalRead> {
  const row = await lockOrNotFound(c.tx, c.company.id, id);
  assertNotClosing(row, 'changes');
  if (row.status !== 'draft')
    throw conflict(`Journal entry ${id} is ${row.status}; only drafts can be changed (reverse a posted entry).`);
  await assertOpen(c, row.transdate);
  const posting = requestsPosting(doc.input);
  const resolved = await resolve(c, doc.input);
  const reference = doc.input.reference ?? row.reference;
  if (reference !== row.reference && (await referenceInUse(c.tx, c.company.id, reference, id)))
    throw referenceTaken(reference);
  const previous = await readJournal(c.tx, c.company.id, id, c.fileUrlBase);
  await updateJournalHeader(c.tx, c.company.id, id, { ...headerValues(resolved, posting), reference });
  const lines = lineRows(resolved);
  await writeLines(c.tx, c.company.id, id, lines, true);
  if (posting) await insertJournalEntries(c.tx, c.company.id, id, { ...resolved, closing: false }, lines);
  await insertJournalFiles(c.tx, c.company.id, id, doc.files);
  await recordAudit(c.tx, c.company.id, c.actor, JOURNAL_ENTITY, id, posting ? 'post' : 'update', { previous });
  if (posting) await journalEvent(c, 'journal_entry.posted', id, postedSnapshot(reference, resolved));
  return (await readJournal(c.tx, c.company.id, id, c.fileUrlBase))!;
}

export async function journalEntryById(c: JournalContext, id: number): Promise<JournalRead> {
  const entry = await readJournal(c.tx, c.company.id, id, c.fileUrlBase);
  if (!entry) throw notFound(`No journal entry with id ${id}.`);
  return entry;
}

export async function journalFile(
  tx: Tx,
  companyId: number,
  id: number,
  fileId: number,
): Promise<{ name: string; media_type: string; data: Buffer }> {
  const file = await readJournalFile(tx, companyId, id, fileId);
  if (!file) throw notFound(`No file ${fileId} on journal entry ${id}.`);
  return file;
}

export async function deleteJournalEntry(c: JournalContext, id: number): Promise<void> {
  const row = await lockOrNotFound(c.tx, c.company.id, id);
  if (row.status !== 'draft')
    throw conflict(`Journal entry ${id} is ${row.status}; only drafts can be deleted (reverse a posted entry).`);
  await assertOpen(c, row.transdate);
  const previous = await readJournal(c.tx, c.company.id, id, c.fileUrlBase);
  await deleteJournal(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, JOURNAL_ENTITY, id, 'delete', { previous });
}

/**
 * Posts the mirror of a posted entry, dated `date`: every line with debit and credit swapped
 * and its base amount negated exactly, so each account nets to zero over the pair. The
 * original becomes `reversed`. Shared with fiscal-year reopening (closing entries), which
 * skips the checks the endpoint makes.
 */
export async function reverseEntry(
  c: ServiceContext,
  row: JournalRow,
  opts: { date: string; description?: string },
): Promise<{ id: number; reference: string }> {
  const mirrored = (await journalLines(c.tx, c.company.id, row.id)).map((l) => ({
    ...l,
    debit: l.credit,
    credit: l.debit,
    baseAmount: l.baseAmount.negated(),
  }));
  const { id, reference } = await insertJournalHeader(c.tx, c.company, undefined, {
    transdate: opts.date,
    description: opts.description ?? `Reversal of ${row.reference}`,
    currency: row.currency,
    exchangerate: row.exchangerate,
    status: 'posted',
    posted_at: new Date(),
    reversal_of_id: row.id,
    closing: row.closing,
    fiscal_year: row.fiscal_year,
    created_by: c.actor.userId,
  });
  await writeLines(c.tx, c.company.id, id, mirrored, false);
  await insertJournalEntries(
    c.tx,
    c.company.id,
    id,
    { transdate: opts.date, currency: row.currency, closing: row.closing },
    mirrored,
  );
  await updateJournalHeader(c.tx, c.company.id, row.id, { status: 'reversed', reversed_by_id: id });
  await recordAudit(c.tx, c.company.id, c.actor, JOURNAL_ENTITY, row.id, 'reverse', {
    reversal_id: id,
    date: opts.date,
  });
  await recordAudit(c.tx, c.company.id, c.actor, JOURNAL_ENTITY, id, 'create_reversal', {
    reversal_of: row.id,
    reference,
  });
  await journalEvent(c, 'journal_entry.reversed', row.id, {
    reference: row.reference,
    reversal_id: id,
    reversal_reference: reference,
    date: opts.date,
  });
  return { id, reference };
}

/** POST /{id}/reverse: posted entries that are not themselves reversals nor closing entries, in an open period. */
export async function reverseJournalEntry(
  c: ServiceContext,
  id: number,
  opts: { date: string; description?: string },
): Promise<{ id: number; reference: string }> {
  const row = await lockOrNotFound(c.tx, c.company.id, id);
  assertNotClosing(row, 'is reversed');
  if (row.status !== 'posted')
    throw conflict(`Journal entry ${id} is ${row.status}; only posted entries can be reversed.`);
  if (row.reversal_of_id !== null) throw conflict(`Journal entry ${id} is itself a reversal.`);
  if (opts.date < row.transdate)
    throw ruleInvalid(`The reversal date must not lie before the entry's date ${row.transdate}.`, '/date');
  await assertOpen(c, opts.date, '/date');
  await refuseIfReconciled(c.tx, c.company.id, `Journal entry ${id}`, { journal_id: id });
  return reverseEntry(c, row, opts);
}

/**
 * A posted entry written by the ledger itself (a fiscal year's closing entry): lines already
 * in the base currency, no period check (closing books into the year being closed).
 */
export async function postEntry(
  c: ServiceContext,
  entry: {
    reference: string;
    transdate: string;
    description: string;
    closing: boolean;
    fiscalYear: number | null;
    lines: JournalLineRow[];
  },
): Promise<{ id: number; reference: string }> {
  const currency = c.company.base_currency.trim();
  const values = {
    transdate: entry.transdate,
    description: entry.description,
    currency,
    exchangerate: '1',
    status: 'posted',
    posted_at: new Date(),
    closing: entry.closing,
    fiscal_year: entry.fiscalYear,
    created_by: c.actor.userId,
  };
  let created: { id: number; reference: string } | undefined;
  // a year closed, reopened and closed again gets CLOSE-2024-2, -3, …
  for (let n = 1; !created; n++) {
    created = await insertJournalHeaderIfFree(
      c.tx,
      c.company.id,
      n === 1 ? entry.reference : `${entry.reference}-${n}`,
      values,
    );
  }
  await writeLines(c.tx, c.company.id, created.id, entry.lines, false);
  await insertJournalEntries(
    c.tx,
    c.company.id,
    created.id,
    { transdate: entry.transdate, currency, closing: entry.closing },
    entry.lines,
  );
  return created;
}
