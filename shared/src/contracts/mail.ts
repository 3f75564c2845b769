/** E-mail of customer invoices (DESIGN.md §5.1): queued durably, sent by the ledger's mail worker. */
import { emailInvoiceSchema, messageQueuedSchema } from '../schemas/index.ts';
import { contract } from './contract.ts';

export const emailInvoice = contract({
  name: 'emailInvoice',
  method: 'POST',
  path: '/arap/invoice/customer/:id/email',
  summary:
    'E-mail a posted customer invoice with its PDF attached (to the customer\'s e-mail unless `to` is given): queued ' +
    'durably and answered 202 with the message id; sent by the mail worker, retried with backoff; the invoice lists it under `emails`',
  permission: 'customers.postings.sales_invoice',
  scope: 'invoices:write',
  body: emailInvoiceSchema,
  status: 202,
  response: messageQueuedSchema,
  errors: ['conflict'],
});
