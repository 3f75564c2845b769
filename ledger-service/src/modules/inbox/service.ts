import type { InboxBook, InboxStatus, Proposal } from '@ledger/shared/schemas/files';
import type { TransactionInput } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import { recordAudit } from '../../db/audit.ts';
import { authorize } from '../../domain/access.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { documentBytes, putDocument } from '../files/index.ts';
import { enqueueJob } from '../../db/queue.ts';
import { addParty, partyIdByNumber } from '../parties/index.ts';
import { addVendorBankAccount } from '../bankAccounts/index.ts';
import { findBankAccountByIban } from '../bank/index.ts';
import { getCompanyProfile } from '../company/index.ts';
import { today } from '../../domain/period.ts';
import { createTransaction, type WriteContext } from '../arap/index.ts';
import { FileRefused, jobModule, jobRef, type FileJobs } from '../../untrusted/index.ts';
import type { Extraction } from './extract.ts';
import type { ExtractInput } from './extractJob.ts';
import {
  isSwissQrPayload,
  parseQrBill,
  proposeBill,
  QrBillInvalid,
  type InboxMediaType,
  type QrBill,
  type VendorMatch,
} from './rules.ts';
import {
  bankAccountOf,
  entryRow,
  inputTaxes,
  insertEntry,
  listEntries,
  updateEntry,
  usualAccounts,
  vendorByIban,
  vendorByName,
  type EntryRow,
} from './store.ts';
import { recordEvent } from '../events/index.ts';

/**
 * The AI inbox workflow: upload (document + entry + extraction job in one transaction),
 * extraction (the job: read the file outside any transaction, then record the result),
 * booking (the proposal becomes a draft vendor transaction with the file) and discarding.
 */

export interface ExtractJob {
  companyId: number;
  entryId: number;
}

/** Longest text kept of a PDF. */
const TEXT_LIMIT = 4000;

export interface InboxUrls {
  /** `{base_url}/documents`, absolute */
  documents: string;
}

export function toEntryRead(row: EntryRow, urls: InboxUrls): Record<string, unknown> & { id: number } {
  return {
    id: row.id,
    status: row.status,
    document_id: row.document_id,
    name: row.name,
    media_type: row.media_type,
    size: Number(row.size),
    created_at: row.created_at.toISOString(),
    ...(row.extracted_at ? { extracted_at: row.extracted_at.toISOString() } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.text ? { text: row.text } : {}),
    ...(row.extracted ? { extracted: row.extracted } : {}),
    ...(row.transaction_id ? { transaction_id: row.transaction_id } : {}),
    content_url: `${urls.documents}/${row.document_id}/content`,
  };
}

async function requireEntry(tx: Tx, companyId: number, id: number, lock = false): Promise<EntryRow> {
  const row = await entryRow(tx, companyId, id, { lock });
  if (!row) throw notFound(`No inbox entry with id ${id}.`);
  return row;
}

export interface Upload {
  name: string;
  mediaType: InboxMediaType;
  data: Buffer;
}

/** Stores the file (once per content), adds the entry and queues its extraction: all or nothing. */
export async function upload(c: ServiceContext, file: Upload, queue: string, urls: InboxUrls) {
  const doc = await putDocument(
    c.tx,
    c.company.id,
    { name: file.name, mediaType: file.mediaType, data: file.data },
    'inbox',
  );
  const id = await insertEntry(c.tx, c.company.id, { documentId: doc.id, name: file.name, createdBy: c.actor.userId });
  await enqueueJob(c.tx, queue, { companyId: c.company.id, entryId: id } satisfies ExtractJob);
  await recordAudit(c.tx, c.company.id, c.actor, 'inbox_entry', id, 'upload', {
    document_id: doc.id,
    name: file.name,
    media_type: file.mediaType,
    size: file.data.length,
    sha256: doc.sha256,
  });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'document.uploaded',
    resource: { type: 'document', id, path: `/documents/inbox/${id}` },
    snapshot: { name: file.name, media_type: file.mediaType, size: file.data.length, document_id: doc.id },
  });
  return toEntryRead(await requireEntry(c.tx, c.company.id, id), urls);
}

export async function listInbox(
  tx: Tx,
  companyId: number,
  q: { status?: InboxStatus; limit?: number; offset?: number; sort?: string },
  urls: InboxUrls,
) {
  const page = await listEntries(tx, companyId, q);
  return { rows: page.rows.map((r) => toEntryRead(r, urls)), total: page.total } satisfies ListPage<unknown>;
}

export async function inboxEntry(tx: Tx, companyId: number, id: number, urls: InboxUrls) {
  return toEntryRead(await requireEntry(tx, companyId, id), urls);
}

export async function discard(c: ServiceContext, id: number): Promise<void> {
  const row = await requireEntry(c.tx, c.company.id, id, true);
  if (row.status === 'discarded') return;
  if (row.status === 'booked')
    throw conflict(
      `Inbox entry ${id} is booked (vendor transaction ${row.transaction_id}); reverse or delete the bill instead.`,
    );
  await updateEntry(c.tx, c.company.id, id, { status: 'discarded' });
  await recordAudit(c.tx, c.company.id, c.actor, 'inbox_entry', id, 'discard', { previous_status: row.status });
}

// --- extraction -----------------------------------------------------------------------------

/** What extraction found, ready to be recorded. */
export type ExtractionResult =
  | { kind: 'failed'; reason: string; text?: string }
  | { kind: 'text'; text: string }
  | { kind: 'qr_bill'; text: string; qr: QrBill };

const extractJob = jobRef<ExtractInput, Extraction>(jobModule(import.meta.url, 'extractJob'), 'extract');

/**
 * Reads a file on a parsing thread (untrusted/pool.ts): never throws for what is wrong with
 * the file itself, including a file over the time or memory limit. A full queue throws
 * (the job is retried later).
 */
export async function readInboxFile(
  jobs: FileJobs,
  data: Buffer,
  mediaType: InboxMediaType,
  company?: number,
): Promise<ExtractionResult> {
  let found: Extraction;
  try {
    // a copy is sent: the buffer may be a slice of a pooled one
    const input = { data: new Uint8Array(data), mediaType };
    found = await jobs.run(extractJob, input, { bytes: data.length, what: 'file', company });
  } catch (err) {
    if (err instanceof FileRefused && err.limit !== 'busy') return { kind: 'failed', reason: err.message };
    throw err;
  }
  const text = found.text.slice(0, TEXT_LIMIT);
  const payload = found.qrCodes.find(isSwissQrPayload);
  if (!payload) return { kind: 'text', text };
  try {
    return { kind: 'qr_bill', text, qr: parseQrBill(payload) };
  } catch (err) {
    if (err instanceof QrBillInvalid)
      return { kind: 'failed', reason: `The QR-bill is not valid: ${err.message}.`, text };
    throw err;
  }
}

async function matchVendor(tx: Tx, companyId: number, qr: QrBill): Promise<VendorMatch | null> {
  const byIban = await vendorByIban(tx, companyId, qr.iban);
  if (byIban) return byIban;
  const byName = await vendorByName(tx, companyId, qr.creditor.name);
  if (!byName) return null;
  const account = await bankAccountOf(tx, companyId, byName.id, qr.iban);
  return account ? { ...byName, bank_account_id: account } : byName;
}

/**
 * The `extracted` object of an entry: the QR-bill, the vendor it matches, the proposed bill
 * (read with the document's text, the company's input tax rates and the company itself).
 */
export async function describeQrBill(
  tx: Tx,
  companyId: number,
  qr: QrBill,
  date: string,
  text: string,
): Promise<Record<string, unknown>> {
  const profile = await getCompanyProfile(tx, companyId);
  const company = { name: profile.name, ownsIban: (await findBankAccountByIban(tx, companyId, qr.iban)) !== undefined };
  const vendor = await matchVendor(tx, companyId, qr);
  const accounts = await usualAccounts(tx, companyId, vendor?.id);
  const inputTaxRates = await inputTaxes(tx, companyId, qr.billing?.document_date ?? date);
  const proposal = proposeBill(qr, vendor, accounts, date, { text, inputTaxes: inputTaxRates, company });
  const { amount, ...rest } = qr;
  const { bank_account_id: _b, ...vendorRead } = vendor ?? { bank_account_id: undefined };
  return {
    ...rest,
    // the payload's two-decimal amount as a JSON number (read shapes carry numbers, not strings)
    ...(amount ? { amount: Number(amount) } : {}),
    vendor: vendor ? vendorRead : null,
    proposal,
  };
}

/** Loads what the job needs; undefined when the entry is gone or no longer new (a job delivered again). */
export async function loadForExtraction(
  tx: Tx,
  companyId: number,
  id: number,
): Promise<{ data: Buffer; mediaType: InboxMediaType } | undefined> {
  const row = await entryRow(tx, companyId, id);
  if (row?.status !== 'new') return undefined;
  return {
    data: await documentBytes(tx, companyId, { id: row.document_id, sha256: row.sha256, storage: row.storage }),
    mediaType: row.media_type,
  };
}

/** Records the result, unless the entry moved on meanwhile (discarded while extraction ran). */
export async function recordExtraction(
  tx: Tx,
  companyId: number,
  id: number,
  result: ExtractionResult,
  date: string,
): Promise<InboxStatus | undefined> {
  const row = await entryRow(tx, companyId, id, { lock: true });
  if (row?.status !== 'new') return undefined;
  const at = tx.fn.now();
  const event = (snapshot: Record<string, unknown>) =>
    recordEvent(tx, companyId, 'system', {
      type: 'document.extracted',
      resource: { type: 'document', id, path: `/documents/inbox/${id}` },
      snapshot,
    });
  if (result.kind === 'failed') {
    await updateEntry(tx, companyId, id, {
      status: 'failed',
      reason: result.reason.slice(0, 1000),
      text: result.text || null,
      extracted_at: at,
    });
    await event({ status: 'failed' });
    return 'failed';
  }
  const extracted =
    result.kind === 'qr_bill' ? await describeQrBill(tx, companyId, result.qr, date, result.text) : null;
  await updateEntry(tx, companyId, id, { status: 'extracted', text: result.text || null, extracted, extracted_at: at });
  const proposal = (extracted as { proposal?: { amount?: unknown; currency?: unknown } } | null)?.proposal;
  await event({ status: 'extracted', amount: proposal?.amount ?? null, currency: proposal?.currency ?? null });
  return 'extracted';
}

// --- booking --------------------------------------------------------------------------------

type Bill = Record<string, unknown> & {
  vendor_id?: number;
  vendornumber?: string;
  vc_bank_id?: number;
  lines?: unknown[];
};

/**
 * Creates the draft bill of an extracted entry: the proposal with the overrides on top.
 * Without a vendor in the overrides the proposal's vendor is used, or its new vendor is
 * created (needs vendors.add_vendor). The vendor gets the QR-bill's IBAN as bank account
 * unless it has it (or the overrides name one), so the bill can go into a payment file.
 */
export async function book(
  c: WriteContext,
  id: number,
  body: InboxBook,
): Promise<{ id: number; transaction_id: number; vendor_id: number }> {
  const row = await requireEntry(c.tx, c.company.id, id, true);
  if (row.status === 'booked')
    throw conflict(`Inbox entry ${id} is already booked as vendor transaction ${row.transaction_id}.`);
  if (row.status !== 'extracted')
    throw conflict(`Inbox entry ${id} is ${row.status}; only extracted entries can be booked.`);
  const extracted = row.extracted as { iban?: string; proposal?: Proposal } | null;
  const proposal = extracted?.proposal;
  const overrides = (body.overrides ?? {}) as Bill;
  const vendorOverridden = overrides.vendor_id !== undefined || overrides.vendornumber !== undefined;
  const bill: Bill = { invDate: today(), ...(proposal?.bill ?? {}), ...overrides };
  if (vendorOverridden) {
    // the proposal's vendor and its bank account are replaced by the override's
    if (overrides.vendor_id === undefined) delete bill.vendor_id;
    if (overrides.vendornumber === undefined) delete bill.vendornumber;
    if (overrides.vc_bank_id === undefined) delete bill.vc_bank_id;
  }
  let vendorId = bill.vendor_id;
  if (vendorId === undefined && bill.vendornumber === undefined) {
    if (proposal?.creditor_is_company)
      throw ruleInvalid(
        "The QR-bill's creditor is this company itself (its own invoice, not a vendor's bill): discard the entry, " +
          'or give overrides.vendor_id to book it on a vendor anyway.',
        '/overrides/vendor_id',
      );
    if (!proposal?.new_vendor)
      throw ruleInvalid('The entry names no vendor: give overrides.vendor_id.', '/overrides/vendor_id');
    authorize(c.actor, 'vendors.add_vendor', null);
    vendorId = (await addParty(c, 'vendor', proposal.new_vendor)).id;
    bill.vendor_id = vendorId;
  }
  if (!bill.lines)
    throw ruleInvalid('The proposal has no amount or no expense account: give overrides.lines.', '/overrides/lines');
  if (vendorId === undefined) {
    vendorId =
      bill.vendornumber === undefined
        ? undefined
        : await partyIdByNumber(c.tx, c.company.id, 'vendor', bill.vendornumber);
  }
  if (extracted?.iban && bill.vc_bank_id === undefined && vendorId !== undefined) {
    bill.vc_bank_id =
      (await bankAccountOf(c.tx, c.company.id, vendorId, extracted.iban)) ??
      (await addVendorBankAccount(c, vendorId, { iban: extracted.iban })).id;
  }
  const data = await documentBytes(c.tx, c.company.id, {
    id: row.document_id,
    sha256: row.sha256,
    storage: row.storage,
  });
  const created = await createTransaction(c, {
    input: bill as unknown as TransactionInput,
    files: [{ name: row.name, mediaType: row.media_type, data }],
  });
  await updateEntry(c.tx, c.company.id, id, { status: 'booked', transaction_id: created.id });
  await recordAudit(c.tx, c.company.id, c.actor, 'inbox_entry', id, 'book', {
    transaction_id: created.id,
    vendor_id: vendorId ?? null,
  });
  return { id, transaction_id: created.id, vendor_id: vendorId! };
}
