import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../db/audit.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { enqueueSend } from '../../db/queue.ts';
import { insertMessage, type NewMessage } from './store.ts';

export type MessageRequest = Omit<NewMessage, 'messageId'>;

export interface QueuedMessage {
  /** the `messages` row */
  id: number;
  /** the RFC 5322 Message-ID every attempt sends */
  messageId: string;
}

/**
 * Queues an e-mail in the caller's transaction: the message row, its attachments, the
 * send job and the audit entry commit together or not at all. The worker sends it later
 * (modules/outbox/worker.ts); the message's status tells how that went.
 */
export async function queueMessage(c: ServiceContext, queue: string, request: MessageRequest): Promise<QueuedMessage> {
  const messageId = `<${randomUUID()}@${domainOf(request.from)}>`;
  const id = await insertMessage(c.tx, c.company.id, { ...request, messageId });
  await enqueueSend(c.tx, queue, { companyId: c.company.id, messageId: id });
  await recordAudit(c.tx, c.company.id, c.actor, 'message', id, 'queue', {
    kind: request.kind,
    transaction_id: request.transactionId,
    to: request.to,
    cc: request.cc,
    subject: request.subject,
  });
  return { id, messageId };
}

function domainOf(address: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(address)?.[1];
  return domain ?? 'ledger.invalid';
}
