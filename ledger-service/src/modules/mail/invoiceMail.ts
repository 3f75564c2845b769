import type { FromSchema } from 'json-schema-to-ts';
import type { emailInvoiceSchema, invoiceReadSchema } from '@ledger/shared';
import { conflict, ruleInvalid } from '../../domain/errors.ts';
import { getCompanyProfile } from '../company/store.ts';
import { getParty } from '../parties/store.ts';
import { invoicePdf } from '../invoices/pdfDocument.ts';
import { invoiceById, type InvoiceContext } from '../invoices/service.ts';
import { queueMessage, type QueuedMessage } from './outbox.ts';
import { coverNote, defaultSubject, senderOf } from './texts.ts';

export type EmailInvoiceRequest = FromSchema<typeof emailInvoiceSchema>;
type InvoiceRead = FromSchema<typeof invoiceReadSchema>;

const list = (v: string | readonly string[] | undefined): string[] => (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]);

/**
 * `POST /arap/invoice/customer/{id}/email`: a posted customer invoice with its PDF, to the
 * customer's e-mail unless `to` says otherwise, queued in the request's transaction.
 */
export async function emailInvoice(
  c: InvoiceContext,
  mail: { queue: string; fallbackSender: string },
  id: number,
  request: EmailInvoiceRequest,
): Promise<QueuedMessage> {
  const invoice = (await invoiceById(c, id)) as InvoiceRead;
  if (invoice.status !== 'posted') throw conflict(`Invoice ${id} is ${invoice.status}; only posted invoices are e-mailed.`);
  const to = list(request.to);
  if (to.length === 0) {
    const customerId = invoice.customer_id;
    const customer = typeof customerId === 'number' ? await getParty(c.tx, 'customer', customerId) : undefined;
    const email = customer && typeof customer.email === 'string' ? customer.email : undefined;
    if (!email) throw ruleInvalid(`The customer of invoice ${id} has no e-mail address; give "to".`, '/to');
    to.push(email);
  }
  const company = await getCompanyProfile(c.tx, c.company.id);
  const { fileName, pdf } = await invoicePdf(c, id);
  const facts = {
    company: company.name,
    invNumber: invoice.invNumber ?? String(id),
    invDate: invoice.invDate ?? '',
    dueDate: invoice.dueDate ?? null,
    amount: invoice.grossAmount ?? 0,
    currency: invoice.currency ?? c.company.base_currency,
  };
  return queueMessage(c, mail.queue, {
    transactionId: id,
    kind: 'invoice',
    from: senderOf(company, mail.fallbackSender),
    to,
    cc: list(request.cc),
    subject: request.subject ?? defaultSubject(facts),
    text: request.message ?? coverNote(facts),
    attachments: [{ filename: fileName, mediaType: 'application/pdf', data: pdf }],
  });
}
