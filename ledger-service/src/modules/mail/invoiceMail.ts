import type { FromSchema } from 'json-schema-to-ts';
import {
  decimalPlaces,
  minorUnits,
  type emailInvoiceSchema,
  type invoiceReadSchema,
  type invoiceReminderSchema,
} from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { conflict, ruleInvalid } from '../../domain/errors.ts';
import { getCompanyProfile, type CompanyProfile } from '../company/index.ts';
import { getParty } from '../parties/index.ts';
import { documentLanguage, invoicePdf, INVOICE_KIND, invoiceById, type InvoiceContext } from '../invoices/index.ts';
import { today } from '../../domain/period.ts';
import { createTransaction, lockHeader, countReminders } from '../arap/index.ts';
import { queueMessage, type MessageRequest, type QueuedMessage } from '../outbox/index.ts';
import {
  coverNote,
  defaultSubject,
  reminderSubject,
  reminderText,
  senderOf,
  type InvoiceFacts,
  type ReminderFee,
  type ReminderLevel,
} from './texts.ts';
import { recordEvent } from '../events/index.ts';

export type EmailInvoiceRequest = FromSchema<typeof emailInvoiceSchema>;
export type ReminderRequest = FromSchema<typeof invoiceReminderSchema>;
type InvoiceRead = FromSchema<typeof invoiceReadSchema>;

export interface MailSettings {
  queue: string;
  fallbackSender: string;
}

/** The highest reminder level; a further reminder is refused. */
export const MAX_REMINDER_LEVEL = 3;

const list = (v: string | readonly string[] | undefined): string[] =>
  v === undefined ? [] : typeof v === 'string' ? [v] : [...v];

/** The invoice's customer, if it exists. */
async function customerOf(c: InvoiceContext, invoice: InvoiceRead) {
  const customerId = invoice.customer_id;
  return typeof customerId === 'number' ? await getParty(c.tx, c.company.id, 'customer', customerId) : undefined;
}

/** The customer's e-mail address, if it has one. */
async function customerEmail(c: InvoiceContext, invoice: InvoiceRead): Promise<string | undefined> {
  const customer = await customerOf(c, invoice);
  return customer && typeof customer.email === 'string' ? customer.email : undefined;
}

async function factsOf(
  c: InvoiceContext,
  id: number,
  invoice: InvoiceRead,
  company: CompanyProfile,
): Promise<InvoiceFacts> {
  return {
    language: documentLanguage(undefined, await customerOf(c, invoice), company),
    kind: invoice.type === 'credit_note' ? 'credit_note' : 'invoice',
    company: company.name,
    invNumber: invoice.invNumber ?? String(id),
    invDate: invoice.invDate ?? '',
    dueDate: invoice.dueDate ?? null,
    amount: invoice.grossAmount ?? 0,
    currency: invoice.currency ?? c.company.base_currency.trim(),
  };
}

/** Queues a message about invoice `id` with its PDF attached, from the company. */
async function queueInvoiceMessage(
  c: InvoiceContext,
  mail: MailSettings,
  id: number,
  company: CompanyProfile,
  message: Pick<MessageRequest, 'kind' | 'to' | 'cc' | 'subject' | 'text'>,
): Promise<QueuedMessage> {
  const { fileName, pdf } = await invoicePdf(c, id);
  return queueMessage(c, mail.queue, {
    ...message,
    transactionId: id,
    from: senderOf(company, mail.fallbackSender),
    attachments: [{ filename: fileName, mediaType: 'application/pdf', data: pdf }],
  });
}

/**
 * `POST /arap/invoice/customer/{id}/email`: a posted customer invoice with its PDF, to the
 * customer's e-mail unless `to` says otherwise, queued in the request's transaction.
 */
export async function emailInvoice(
  c: InvoiceContext,
  mail: MailSettings,
  id: number,
  request: EmailInvoiceRequest,
): Promise<QueuedMessage> {
  const invoice = (await invoiceById(c, id)) as InvoiceRead;
  if (invoice.status !== 'posted')
    throw conflict(`Invoice ${id} is ${invoice.status}; only posted invoices are e-mailed.`);
  const to = list(request.to);
  if (to.length === 0) {
    const email = await customerEmail(c, invoice);
    if (!email) throw ruleInvalid(`The customer of invoice ${id} has no e-mail address; give "to".`, '/to');
    to.push(email);
  }
  const company = await getCompanyProfile(c.tx, c.company.id);
  const facts = await factsOf(c, id, invoice, company);
  const queued = await queueInvoiceMessage(c, mail, id, company, {
    kind: 'invoice',
    to,
    cc: list(request.cc),
    subject: request.subject ?? defaultSubject(facts),
    text: request.message ?? coverNote(facts),
  });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'invoice.emailed',
    resource: { type: 'invoice', id, path: `/arap/document/customer/${id}` },
    // message_id as the call answers it (the e-mail's Message-ID); email_id: its entry in the invoice's `emails`
    snapshot: { number: invoice.invNumber ?? null, email_id: queued.id, message_id: queued.messageId, to },
  });
  return queued;
}

export interface QueuedReminder extends QueuedMessage {
  level: ReminderLevel;
  /** the posted customer transaction booking the fee, or null */
  feeTransactionId: number | null;
}

/** Why invoice `id` cannot be reminded of, or null when it can (posted, overdue, unpaid). */
function notRemindable(id: number, invoice: InvoiceRead, day: string): string | null {
  if (invoice.status !== 'posted') return `Invoice ${id} is ${invoice.status}; only posted invoices are reminded of.`;
  if ((invoice.open ?? 0) <= 0) return `Invoice ${id} is paid (nothing open); only unpaid invoices are reminded of.`;
  if (!invoice.dueDate || invoice.dueDate >= day) {
    return (
      `Invoice ${id} is not overdue (due ${invoice.dueDate ? `on ${invoice.dueDate}` : 'date not set'}); only ` +
      `overdue invoices are reminded of.`
    );
  }
  return null;
}

/**
 * Books the reminder fee as its own posted customer transaction (the transactions
 * workflow: numbering, closed period, approval, audit) on the company's reminder-fee account.
 */
async function bookReminderFee(
  c: InvoiceContext,
  id: number,
  invoice: InvoiceRead,
  company: CompanyProfile,
  level: ReminderLevel,
  fee: number,
  day: string,
) {
  const account = company.reminder_fee_account;
  if (account === null) {
    throw ruleInvalid(
      'No reminder-fee account is set: set reminder_fee_account with POST /system/company, or send the ' +
        'reminder without fee.',
      '/fee',
    );
  }
  const currency = invoice.currency ?? c.company.base_currency.trim();
  if (decimalPlaces(fee) > minorUnits(currency))
    throw ruleInvalid(`fee ${fee} has more decimals than ${currency} allows (${minorUnits(currency)}).`, '/fee');
  const description = `Reminder fee, level ${level}, invoice ${invoice.invNumber ?? id}`;
  return createTransaction(c, {
    input: {
      type: 'transaction',
      customer_id: invoice.customer_id,
      invDate: day,
      curr: currency,
      ...(currency === c.company.base_currency.trim() ? {} : { exchangerate: invoice.exchangerate }),
      description,
      pending: '0',
      lines: [{ account, amount: fee, description }],
    },
    files: [],
  });
}

/**
 * `POST /arap/invoice/customer/{id}/reminder`: the next reminder (levels 1–3) of a posted,
 * overdue, unpaid customer invoice, to the customer's e-mail with the invoice PDF attached;
 * the optional fee booked as its own posted document and named in the text. The invoice row
 * is locked, so two reminders at once get consecutive levels.
 */
export async function sendReminder(
  c: InvoiceContext,
  mail: MailSettings,
  id: number,
  request: ReminderRequest,
): Promise<QueuedReminder> {
  await lockHeader(c.tx, c.company.id, c.vc, id, INVOICE_KIND.type);
  const invoice = (await invoiceById(c, id)) as InvoiceRead;
  const day = today();
  const refusal = notRemindable(id, invoice, day);
  if (refusal) throw conflict(refusal);
  const sent = await countReminders(c.tx, c.company.id, id);
  if (sent >= MAX_REMINDER_LEVEL)
    throw conflict(`Invoice ${id} has had all ${MAX_REMINDER_LEVEL} reminders; no further reminder is sent.`);
  const level = (sent + 1) as ReminderLevel;
  const email = await customerEmail(c, invoice);
  if (!email) throw ruleInvalid(`The customer of invoice ${id} has no e-mail address; set one on the customer.`);
  const company = await getCompanyProfile(c.tx, c.company.id);
  const facts = await factsOf(c, id, invoice, company);
  const feeDocument =
    request.fee === undefined ? null : await bookReminderFee(c, id, invoice, company, level, request.fee, day);
  const fee: ReminderFee | null =
    feeDocument && request.fee !== undefined ? { amount: request.fee, invNumber: feeDocument.invNumber } : null;
  const queued = await queueInvoiceMessage(c, mail, id, company, {
    kind: 'reminder',
    to: [email],
    cc: [],
    subject: reminderSubject(facts, level),
    text: reminderText(facts, level, invoice.open ?? 0, fee, request.message),
  });
  await recordAudit(c.tx, c.company.id, c.actor, INVOICE_KIND.entity(c.vc), id, 'remind', {
    level,
    message_id: queued.id,
    fee: request.fee ?? null,
    fee_transaction_id: feeDocument?.id ?? null,
  });
  return { ...queued, level, feeTransactionId: feeDocument?.id ?? null };
}
