import { insertJsonRows } from '../../db/jsonRows.ts';
import type { Tx } from '../../db/knex.ts';
import { documentBytes, putDocument, type StorageKind } from '../files/index.ts';

/**
 * The outbox's SQL: `messages` and `message_attachments` (migration 008), under RLS. The
 * attachments' bytes live in the document store (modules/files, migration 016): an
 * attachment row links a document of source `email`, so the same PDF e-mailed twice is
 * stored once and listed under both messages. An attachment may instead name what renders it
 * when the message is sent (migration 046: a dunning run's reminders); the sender then stores
 * the rendered file and links it the same way.
 */

export type MessageKind = 'invoice' | 'reminder' | 'other';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** A file attached as it is. */
export interface Attachment {
  filename: string;
  mediaType: string;
  data: Buffer;
}

/**
 * A file the mail sender makes when it sends the message (migration 046): the renderer `kind`
 * registered at start (render.ts) is given `ref` and returns the bytes. What the file shows must
 * be in `ref` or in rows that do not change after queueing (a dunning item).
 */
export interface RenderedAttachment {
  filename: string;
  mediaType: string;
  render: { kind: string; ref: Record<string, unknown> };
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
  attachments: (Attachment | RenderedAttachment)[];
}

/** A message as the sender needs it. */
export interface OutgoingMessage extends Omit<NewMessage, 'transactionId' | 'kind' | 'attachments'> {
  id: number;
  status: MessageStatus;
  attempts: number;
  attachments: Attachment[];
}

/** A message as it is stored: an attachment still to be rendered names its row and renderer. */
export interface StoredMessage extends Omit<OutgoingMessage, 'attachments'> {
  attachments: (Attachment | (RenderedAttachment & { attachmentId: number }))[];
}

const MESSAGE_COLUMNS = {
  transaction_id: 'bigint',
  kind: 'text',
  from_address: 'text',
  to_addresses: 'text[]',
  cc_addresses: 'text[]',
  subject: 'text',
  body: 'text',
  message_id: 'text',
} as const;

const ATTACHMENT_COLUMNS = {
  message_id: 'bigint',
  position: 'int',
  filename: 'text',
  media_type: 'text',
  document_id: 'bigint',
  render_kind: 'text',
  render_ref: 'jsonb',
} as const;

export async function insertMessage(tx: Tx, companyId: number, m: NewMessage): Promise<number> {
  return (await insertMessages(tx, companyId, [m]))[0]!;
}

/**
 * Many messages with their attachments: one statement for the messages and one for the
 * attachment rows, each with one JSON parameter (db/jsonRows.ts), so a dunning run's 10,000
 * reminders are not bound by Postgres's parameter limit. A file given as bytes is stored in the
 * document store first (one by one: the same bytes are one document); a file to be rendered is
 * only described. Returns the ids in the order given.
 */
export async function insertMessages(tx: Tx, companyId: number, ms: readonly NewMessage[]): Promise<number[]> {
  if (ms.length === 0) return [];
  const { rows } = await tx.raw<{ rows: { id: number; message_id: string }[] }>(
    `${insertJsonRows('messages', MESSAGE_COLUMNS, { company_id: '?' })} returning id, message_id`,
    [
      companyId,
      JSON.stringify(
        ms.map((m) => ({
          transaction_id: m.transactionId,
          kind: m.kind,
          from_address: m.from,
          to_addresses: m.to,
          cc_addresses: m.cc,
          subject: m.subject,
          body: m.text,
          message_id: m.messageId,
        })),
      ),
    ],
  );
  // the Message-ID is unique per company (messages_company_message_id_unique): it names each new row
  const idOf = new Map(rows.map((r) => [r.message_id, Number(r.id)]));
  const ids = ms.map((m) => idOf.get(m.messageId)!);
  const attachments = [];
  for (const [i, m] of ms.entries()) {
    for (const [position, a] of m.attachments.entries()) {
      const common = { message_id: ids[i], position, filename: a.filename, media_type: a.mediaType };
      if ('render' in a) {
        attachments.push({ ...common, document_id: null, render_kind: a.render.kind, render_ref: a.render.ref });
      } else {
        const doc = await putDocument(
          tx,
          companyId,
          { name: a.filename, mediaType: a.mediaType, data: a.data },
          'email',
        );
        attachments.push({ ...common, document_id: doc.id, render_kind: null, render_ref: null });
      }
    }
  }
  if (attachments.length > 0) {
    await tx.raw(insertJsonRows('message_attachments', ATTACHMENT_COLUMNS, { company_id: '?' }), [
      companyId,
      JSON.stringify(attachments),
    ]);
  }
  return ids;
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

/** An attachment of a message with where its bytes are, or what renders them. */
interface AttachmentLink {
  id: number;
  filename: string;
  media_type: string;
  company_id: number;
  document_id: number | null;
  sha256: string | null;
  storage: StorageKind | null;
  render_kind: string | null;
  render_ref: Record<string, unknown> | null;
}

export async function loadOutgoingMessage(tx: Tx, companyId: number, id: number): Promise<StoredMessage | undefined> {
  const row = await tx<MessageRow>('messages').where({ company_id: companyId, id }).first();
  if (!row) return undefined;
  const links = await tx('message_attachments as a')
    .leftJoin('documents as d', function sameCompany() {
      this.on('d.id', '=', 'a.document_id').andOn('d.company_id', '=', 'a.company_id');
    })
    .where({ 'a.company_id': companyId, 'a.message_id': id })
    .orderBy('a.position')
    .select<AttachmentLink[]>(
      'a.id',
      'a.filename',
      'a.media_type',
      'a.company_id',
      'd.id as document_id',
      'd.sha256',
      'd.storage',
      'a.render_kind',
      'a.render_ref',
    );
  const attachments: StoredMessage['attachments'] = [];
  for (const a of links) {
    const common = { filename: a.filename, mediaType: a.media_type };
    if (a.document_id !== null && a.sha256 !== null && a.storage !== null) {
      const data = await documentBytes(tx, a.company_id, { id: a.document_id, sha256: a.sha256, storage: a.storage });
      attachments.push({ ...common, data });
    } else {
      attachments.push({ ...common, attachmentId: a.id, render: { kind: a.render_kind!, ref: a.render_ref! } });
    }
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

/**
 * A rendered file becomes the attachment's document (source `email`, like every attachment), so
 * the message's later attempts send these bytes and the documents list shows them. An attachment
 * that has its document already (another attempt stored it first) keeps it: that document's bytes
 * are returned.
 */
export async function storeRenderedAttachment(
  tx: Tx,
  companyId: number,
  attachmentId: number,
  file: Attachment,
): Promise<Buffer> {
  const doc = await putDocument(
    tx,
    companyId,
    { name: file.filename, mediaType: file.mediaType, data: file.data },
    'email',
  );
  const linked = await tx('message_attachments')
    .where({ company_id: companyId, id: attachmentId, document_id: null })
    .update({ document_id: doc.id });
  if (linked === 1) return file.data;
  const row = await tx('message_attachments as a')
    .join('documents as d', function sameCompany() {
      this.on('d.id', '=', 'a.document_id').andOn('d.company_id', '=', 'a.company_id');
    })
    .where({ 'a.company_id': companyId, 'a.id': attachmentId })
    .first<{ id: number; sha256: string; storage: StorageKind } | undefined>('d.id', 'd.sha256', 'd.storage');
  if (!row) throw new Error(`attachment ${attachmentId} is gone`);
  return documentBytes(tx, companyId, row);
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
