import type { Tx } from '../../db/knex.ts';
import { documentBytes, putDocument, type StorageKind } from '../files/index.ts';

/**
 * The outbox's SQL: `messages` and `message_attachments` (migration 008), under RLS. The
 * attachments' bytes live in the document store (modules/files, migration 016): an
 * attachment row links a document of source `email`, so the same PDF e-mailed twice is
 * stored once and listed under both messages.
 */

export type MessageKind = 'invoice' | 'reminder' | 'other';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface Attachment {
  filename: string;
  mediaType: string;
  data: Buffer;
}

export interface NewMessage {
  transactionId: number | null;
  kind: MessageKind;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  messageId: string;
  attachments: Attachment[];
}

/** A message as the sender needs it. */
export interface OutgoingMessage extends Omit<NewMessage, 'transactionId' | 'kind'> {
  id: number;
  status: MessageStatus;
  attempts: number;
}

export async function insertMessage(tx: Tx, companyId: number, m: NewMessage): Promise<number> {
  const [row] = await tx('messages')
    .insert({
      company_id: companyId,
      transaction_id: m.transactionId,
      kind: m.kind,
      from_address: m.from,
      to_addresses: m.to,
      cc_addresses: m.cc,
      subject: m.subject,
      body: m.text,
      message_id: m.messageId,
    })
    .returning('id');
  const id = row!.id;
  if (m.attachments.length > 0) {
    const rows = [];
    for (const [position, a] of m.attachments.entries()) {
      const doc = await putDocument(tx, companyId, { name: a.filename, mediaType: a.mediaType, data: a.data }, 'email');
      rows.push({
        company_id: companyId,
        message_id: id,
        position,
        filename: a.filename,
        media_type: a.mediaType,
        document_id: doc.id,
      });
    }
    await tx('message_attachments').insert(rows);
  }
  return id;
}

interface MessageRow {
  id: number;
  company_id: number;
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  subject: string;
  body: string;
  message_id: string;
  status: MessageStatus;
  attempts: number;
}

/** An attachment of a message with where its bytes are. */
interface AttachmentLink {
  filename: string;
  media_type: string;
  company_id: number;
  document_id: number;
  sha256: string;
  storage: StorageKind;
}

export async function loadOutgoingMessage(tx: Tx, companyId: number, id: number): Promise<OutgoingMessage | undefined> {
  const row = await tx<MessageRow>('messages').where({ company_id: companyId, id }).first();
  if (!row) return undefined;
  const links = await tx('message_attachments as a')
    .join('documents as d', function sameCompany() {
      this.on('d.id', '=', 'a.document_id').andOn('d.company_id', '=', 'a.company_id');
    })
    .where({ 'a.company_id': companyId, 'a.message_id': id })
    .orderBy('a.position')
    .select<AttachmentLink[]>(
      'a.filename',
      'a.media_type',
      'a.company_id',
      'd.id as document_id',
      'd.sha256',
      'd.storage',
    );
  const attachments = [];
  for (const a of links) {
    const data = await documentBytes(tx, a.company_id, { id: a.document_id, sha256: a.sha256, storage: a.storage });
    attachments.push({ filename: a.filename, mediaType: a.media_type, data });
  }
  return {
    id: row.id,
    from: row.from_address,
    to: row.to_addresses,
    cc: row.cc_addresses,
    subject: row.subject,
    text: row.body,
    messageId: row.message_id,
    status: row.status,
    attempts: row.attempts,
    attachments,
  };
}

/** What claiming a message for sending found: whether an earlier attempt was cut off mid-send. */
export interface SendingClaim {
  interrupted: boolean;
}

/** Said of a message whose earlier attempt was cut off between the send and its record. */
export const INTERRUPTED_ATTEMPT =
  'an earlier attempt was interrupted before its outcome was recorded; sent again with the same Message-ID';

/**
 * queued → sending, committed by the caller before the message goes out. A message already
 * `sending` was being sent when its process stopped: it is claimed again and that cut-off
 * attempt counted. Nothing for a message that is `sent`, `failed` or gone.
 */
export async function claimForSending(tx: Tx, companyId: number, id: number): Promise<SendingClaim | undefined> {
  const row = await tx('messages')
    .where({ company_id: companyId, id })
    .whereIn('status', ['queued', 'sending'])
    .forUpdate()
    .first<{ status: MessageStatus } | undefined>('status');
  if (!row) return undefined;
  const interrupted = row.status === 'sending';
  await tx('messages')
    .where({ company_id: companyId, id })
    .update({
      status: 'sending',
      sending_at: tx.fn.now(),
      ...(interrupted ? { attempts: tx.raw('attempts + 1'), last_error: INTERRUPTED_ATTEMPT } : {}),
    });
  return { interrupted };
}

/** sending → sent. */
export async function markSent(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('messages')
    .where({ company_id: companyId, id, status: 'sending' })
    .update({ status: 'sent', sent_at: tx.fn.now(), attempts: tx.raw('attempts + 1'), last_error: null });
}

/** A failed attempt (sending → queued); `final` when no retry follows (the message is then `failed`). */
export async function markAttemptFailed(
  tx: Tx,
  companyId: number,
  id: number,
  error: string,
  final: boolean,
): Promise<void> {
  await tx('messages')
    .where({ company_id: companyId, id, status: 'sending' })
    .update({
      status: final ? 'failed' : 'queued',
      attempts: tx.raw('attempts + 1'),
      last_error: error.slice(0, 2000),
    });
}
