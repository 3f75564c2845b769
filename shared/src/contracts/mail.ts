/** E-mail of customer invoices (docs/invoices.md): queued durably, sent by the ledger's mail worker. */
import {
  emailInvoiceSchema,
  invoiceReminderSchema,
  messageQueuedSchema,
  reminderQueuedSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const emailInvoice = contract({
  name: 'emailInvoice',
  method: 'POST',
  path: '/arap/invoice/customer/:id/email',
  summary: 'E-mail a customer invoice',
  description:
    "E-mail a posted customer invoice with its PDF attached (to the customer's e-mail unless `to` is given): queued " +
    'durably and answered 202 with the message id; sent by the mail worker, retried with backoff; the invoice lists ' +
    'it under `emails`',
  example: examples.emailInvoice,
  permission: 'customers.postings.sales_invoice',
  scope: 'invoices:write',
  effect: 'sends',
  body: emailInvoiceSchema,
  status: 202,
  response: messageQueuedSchema,
  errors: ['conflict'],
});

export const sendReminder = contract({
  name: 'sendReminder',
  method: 'POST',
  path: '/arap/invoice/customer/:id/reminder',
  summary: 'Send a payment reminder',
  description:
    "Send a payment reminder (levels 1–3) for a posted, overdue, unpaid customer invoice to the customer's e-mail, " +
    'the invoice PDF attached: queued durably and answered 202 with the message id and level; an optional `fee` is ' +
    "booked as its own posted customer transaction on the company's reminder-fee account and named in the reminder; " +
    "the invoice's `reminder_level` counts the reminders",
  example: examples.sendReminder,
  permission: 'customers.postings.sales_invoice',
  scope: 'invoices:write',
  effect: 'sends',
  body: invoiceReminderSchema,
  status: 202,
  response: reminderQueuedSchema,
  errors: ['conflict', 'amount_exceeded', 'closed_period', 'vat_period_filed'],
});
