import { randomUUID } from 'node:crypto';
import { auditRow, recordAudits } from '../../db/audit.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { enqueueSends } from '../../db/queue.ts';
import { insertMessages, type NewMessage } from './store.ts';

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
  return (await queueMessages(c, queue, [request]))[0]!;
}

/**
 * Many e-mails at once (a dunning run's reminders), each exactly as queueMessage queues it — its
 * row, attachments, send job and audit entry — written set-based: one statement per table (the
 * rows as one JSON parameter), whatever their number. In the order given.
 */
export async function queueMessages(
  c: ServiceContext,
  queue: string,
  requests: readonly MessageRequest[],
): Promise<QueuedMessage[]> {
  if (requests.length === 0) return [];
  const messages = requests.map((r) => ({ ...r, messageId: `<${randomUUID()}@${domainOf(r.from)}>` }));
  const ids = await insertMessages(c.tx, c.company.id, messages);
  await enqueueSends(
    c.tx,
    queue,
    ids.map((id) => ({ companyId: c.company.id, messageId: id })),
  );
  await recordAudits(
    c.tx,
    requests.map((r, i) =>
      auditRow(c.company.id, c.actor, 'message', ids[i]!, 'queue', {
        kind: r.kind,
        transaction_id: r.transactionId,
        to: r.to,
        cc: r.cc,
        subject: r.subject,
      }),
    ),
  );
  return ids.map((id, i) => ({ id, messageId: messages[i]!.messageId }));
}

function domainOf(address: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(address)?.[1];
  return domain ?? 'ledger.invalid';
}
