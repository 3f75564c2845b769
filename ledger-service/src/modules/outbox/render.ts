import type { Tx } from '../../db/knex.ts';

/**
 * The files the mail sender renders when it sends (docs/invoices.md "Dunning runs"): a queued
 * message may carry an attachment described by a renderer's kind and a reference instead of its
 * bytes, so a request that queues thousands of messages (a dunning run) does not render a PDF for
 * each. The outbox comes first in the module order and knows no invoice or reminder: the modules
 * that queue such attachments export their renderers, and the ledger's start hands them to the
 * mail worker (server.ts, `ATTACHMENT_RENDERERS` in modules/index.ts).
 *
 * A renderer runs in a tenant transaction of the message's company and must give the same file
 * whenever it is called: what it prints comes from `ref` and rows that do not change once the
 * message is queued. Its file is stored as the attachment's document before the first attempt to
 * send, so a message is always sent with the same bytes.
 */
export type AttachmentRenderer = (tx: Tx, companyId: number, ref: Readonly<Record<string, unknown>>) => Promise<Buffer>;

/** Renderers by the kind an attachment names (`message_attachments.render_kind`). */
export type AttachmentRenderers = Readonly<Record<string, AttachmentRenderer>>;

/** The renderer of `kind`; an attachment naming none is a fault of the process (the attempt fails, and is retried). */
export function rendererOf(renderers: AttachmentRenderers, kind: string): AttachmentRenderer {
  const render = Object.hasOwn(renderers, kind) ? renderers[kind] : undefined;
  if (!render) throw new Error(`no renderer for attachments of kind "${kind}" is registered in this process`);
  return render;
}
