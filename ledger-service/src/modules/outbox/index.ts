/**
 * The face of modules/outbox: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 *
 * modules/outbox is the e-mail outbox: a message and its attachments written in the caller's
 * transaction with its send job (db/queue.ts), the worker that sends it (SMTP or .eml files), its
 * status. It knows no invoice: modules/mail composes invoices and reminders on it, modules/events
 * tells owners about disabled webhooks through it.
 */
export { type MessageRequest, type QueuedMessage, queueMessage, queueMessages } from './outbox.ts';
export type { AttachmentRenderer, AttachmentRenderers } from './render.ts';
export { type MessageStatus, insertMessage } from './store.ts';
export { type MailWorkerOptions, startMailWorker } from './worker.ts';
