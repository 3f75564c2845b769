/**
 * Invoices and bills area: bills are vendor-side documents, invoices customer-side ones. The
 * reads cover both kinds of document (REST `/arap/documents/{vc}`, `/arap/document/{vc}/{id}`):
 * AR/AP transactions with lines and invoices with items, told apart by `kind`. Bills are
 * written as AP transactions (`/arap/transaction/vendor`), invoices with items
 * (`/arap/invoice/customer`).
 */
import { contracts, requestsPosting, type CustomerInvoiceInput, type TransactionInput } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { idOf, plural, summaries } from './summaries.ts';
import { isRecord } from './isRecord.ts';

export const invoiceTools: ToolDeclaration[] = [
  {
    name: 'list_invoices',
    title: 'List customer invoices',
    description: 'Find customer invoices and AR transactions (kind) by number, status, customer or date.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listDocuments,
    side: 'customer',
    listKey: 'invoices',
    rowsAs: 'get_invoice',
    summary: summaries.list('invoice'),
  },
  {
    name: 'get_invoice',
    title: 'Get customer invoice',
    description:
      'One customer invoice or AR transaction: items or lines, tax, paid and open amount, reminders, e-mails.',
    area: 'invoices',
    access: 'read',
    contract: contracts.getDocument,
    side: 'customer',
    params: { id: 'invoice or AR transaction id' },
    summary: summaries.get('invoice'),
  },
  {
    name: 'create_invoice',
    title: 'Create customer invoice',
    description:
      'Create a customer invoice from items (a service, or description, quantity, price and account). A draft unless ' +
      'pending "0". lines instead of items book an AR transaction.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createInvoice,
    side: 'customer',
    fixedBody: { type: 'invoice' },
    alternative: { field: 'lines', contract: contracts.createTransaction, fixedBody: { type: 'transaction' } },
    // the input passed the body schema, so pending is "0", 0 or absent
    summary: (result, input) =>
      `Created ${input.lines === undefined ? 'invoice' : 'AR transaction'} ${idOf(result, input)} as ` +
      `${requestsPosting(input as Pick<CustomerInvoiceInput, 'pending'>) ? 'posted' : 'a draft'}.`,
  },
  {
    name: 'update_invoice',
    title: 'Update customer invoice',
    description: 'Replace a customer invoice with the complete invoice (items replaced); pending "0" posts a draft.',
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateInvoice,
    side: 'customer',
    params: { id: 'invoice id' },
    inputAs: 'create_invoice',
    fixedBody: { type: 'invoice' },
    summary: summaries.updated('invoice'),
  },
  {
    name: 'list_bills',
    title: 'List vendor bills',
    description:
      "Find vendor bills by the vendor's document number, status, vendor or date. Check here before creating a bill.",
    area: 'invoices',
    access: 'read',
    contract: contracts.listDocuments,
    side: 'vendor',
    listKey: 'bills',
    rowsAs: 'get_bill',
    summary: summaries.list('bill'),
  },
  {
    name: 'get_bill',
    title: 'Get vendor bill',
    description: 'One vendor bill: lines, tax, status, files.',
    area: 'invoices',
    access: 'read',
    contract: contracts.getDocument,
    side: 'vendor',
    params: { id: 'bill (AP transaction or vendor invoice) id' },
    outputAs: 'get_invoice',
    summary: summaries.get('bill'),
  },
  {
    name: 'aging_report',
    title: 'Aging of receivables or payables',
    description: 'Open receivables (vc "customer") or payables (vc "vendor") per party by days past due, as of a date.',
    area: 'invoices',
    access: 'read',
    contract: contracts.agingReport,
    side: 'customer',
    sideInInput: true,
    summary: (result, input) => {
      const total = isRecord(result) && isRecord(result.totals) ? result.totals.total : undefined;
      const rows = isRecord(result) && Array.isArray(result.rows) ? result.rows.length : 0;
      const date = isRecord(result) && typeof result.date === 'string' ? result.date : 'today';
      const currency = isRecord(result) && typeof result.currency === 'string' ? result.currency : undefined;
      return (
        `${input.vc === 'vendor' ? 'Payables' : 'Receivables'} as of ${date}: ` +
        `${plural(rows, input.vc === 'vendor' ? 'vendor' : 'customer')} with open amounts` +
        `${typeof total === 'number' && currency !== undefined ? `, ${total} ${currency} in total` : ''}.`
      );
    },
  },
  {
    name: 'create_bill',
    title: 'Create vendor bill',
    description:
      'Record a vendor bill: vendor_id, its documentNumber, invDate, lines of expense account and amount. A draft ' +
      'unless pending "0".',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createTransaction,
    side: 'vendor',
    fixedBody: { type: 'transaction' },
    // the input passed the body schema, so pending is "0", 0 or absent
    fieldsAs: { lines: 'create_invoice', files: 'create_invoice' },
    summary: (result, input) =>
      `Created bill ${idOf(result, input)} as ` +
      `${requestsPosting(input as Pick<TransactionInput, 'pending'>) ? 'posted' : 'a draft'}.`,
  },
  {
    name: 'update_bill',
    title: 'Update vendor bill',
    description: 'Replace a draft vendor bill with the complete bill (lines replaced).',
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateTransaction,
    side: 'vendor',
    params: { id: 'bill id' },
    inputAs: 'create_bill',
    fixedBody: { type: 'transaction' },
    summary: summaries.updated('bill'),
  },
  {
    name: 'approve_bill',
    title: 'Approve and post vendor bill',
    description:
      "Post a draft bill: send the complete bill as for create_bill, plus id. Refused above the person's approval " +
      'limit.',
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: false,
    contract: contracts.approveTransaction,
    side: 'vendor',
    params: { id: 'bill id' },
    inputAs: 'create_bill',
    fixedBody: { type: 'transaction', pending: '0' },
    summary: (result, input) => `Bill ${idOf(result, input)} approved and posted.`,
  },
  {
    name: 'record_payment',
    title: 'Record payment',
    description:
      'Record money received (vc "customer") or paid (vc "vendor") on a posted invoice or bill, at most its open ' +
      'amount, to a bank account.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createPayment,
    side: 'customer',
    sideInInput: true,
    summary: (result, input) =>
      `Recorded payment ${idOf(result, input)} of ${String(input.amount)} on ` +
      `${input.vc === 'vendor' ? 'bill' : 'invoice'} ${String(input.document_id)}.`,
  },
  {
    name: 'list_services',
    title: 'List services',
    description:
      'The services catalogue (unit, price, accounts): name one on an invoice item by service_id or partnumber.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listServices,
    listKey: 'services',
    summary: summaries.list('service'),
  },
  {
    name: 'list_workstation',
    title: 'Drafts awaiting review',
    description: 'Drafts awaiting review (bills and invoices), oldest first, with who created them.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listWorkstation,
    listKey: 'drafts',
    summary: summaries.list('draft'),
  },
  {
    name: 'email_invoice',
    title: 'E-mail customer invoice',
    description: 'E-mail a posted customer invoice as PDF to the customer (or to another address).',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.emailInvoice,
    params: { id: 'invoice id' },
    summary: (result, input) =>
      `Invoice ${input.id} queued for e-mail` +
      `${isRecord(result) && typeof result.message_id === 'string' ? ` (${result.message_id})` : ''}.`,
  },
  {
    name: 'create_credit_note',
    title: 'Issue credit note',
    description:
      'Posted credit note (Gutschrift) of a posted invoice: all of it, or the items sent (positive quantities); at ' +
      'most its open amount.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createCreditNote,
    side: 'customer',
    params: { id: 'the invoice id' },
    fieldsAs: { items: 'create_invoice' },
    summary: (result, input) => `Issued credit note ${idOf(result, input)} of invoice ${input.id}.`,
  },
  {
    name: 'allocate_credit_note',
    title: 'Set credit note against document',
    description:
      'Set a credit note\'s open amount against an open document of the same party and currency (vc "customer": ' +
      'an invoice; "vendor": a bill); no money moves. A refund is record_payment on the credit note.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.allocateCreditNote,
    side: 'customer',
    sideInInput: true,
    params: { id: 'credit note id' },
    summary: (result, input) =>
      `Set ${String(isRecord(result) ? result.amount : input.amount)} of credit note ${String(input.id)} against ` +
      `${input.vc === 'vendor' ? 'bill' : 'invoice'} ${String(input.document_id)}` +
      `${isRecord(result) && typeof result.document_open === 'number' ? `; ${result.document_open} still open` : ''}.`,
  },
  {
    name: 'create_quote',
    title: 'Create quote',
    description:
      'Quote (Offerte) from items as for an invoice, with valid_until. Books nothing; convert_quote makes it a draft ' +
      'invoice.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createQuote,
    fieldsAs: { items: 'create_invoice' },
    summary: summaries.created('quote'),
  },
  {
    name: 'list_quotes',
    title: 'List quotes',
    description: 'Quotes: number, customer, status, valid_until, total, and the invoice a converted one became.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listQuotes,
    listKey: 'quotes',
    summary: summaries.list('quote'),
  },
  {
    name: 'convert_quote',
    title: 'Turn quote into invoice',
    description: 'Turn an open or accepted quote into a draft invoice; declined or expired ones are refused.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.invoiceQuote,
    params: { id: 'quote id' },
    summary: (result, input) => `Quote ${input.id} became draft invoice ${idOf(result, input)}.`,
  },
  {
    name: 'list_recurring_invoices',
    title: 'List recurring invoices',
    description: 'Recurring invoices: schedule, mode, status, next date.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listRecurring,
    listKey: 'recurring_invoices',
    summary: summaries.list('recurring invoice'),
  },
  {
    name: 'create_recurring_invoice',
    title: 'Create recurring invoice',
    description:
      'Invoice template (as create_invoice, no invDate; {month} {quarter} {year} name the period), schedule, mode. ' +
      'Each due invoice is made once.',
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: false,
    contract: contracts.createRecurring,
    fieldsAs: { 'template.items': 'create_invoice' },
    summary: summaries.created('recurring invoice'),
  },
  {
    name: 'pause_recurring_invoice',
    title: 'Pause recurring invoice',
    description: 'No invoices until resumed; dates meanwhile are skipped.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: true,
    contract: contracts.pauseRecurring,
    params: { id: 'recurring invoice id' },
    summary: (_result, input) => `Recurring invoice ${input.id} paused.`,
  },
  {
    name: 'run_dunning',
    title: 'Dunning run',
    description:
      'dry_run true: list what a run on date would remind (level, fee). Else send them: reminders e-mailed, fees ' +
      'booked.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: true,
    contract: contracts.runDunning,
    summary: (result, input) =>
      `${isRecord(result) && Array.isArray(result.items) ? result.items.length : 0} reminder(s) ` +
      `${input.dry_run === true ? 'proposed' : 'sent'}.`,
  },
  {
    name: 'send_reminder',
    title: 'Send payment reminder',
    description: 'Send the next payment reminder for an overdue customer invoice, optionally with a fee.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.sendReminder,
    params: { id: 'invoice id' },
    summary: (result, input) =>
      `Reminder${isRecord(result) && typeof result.level === 'number' ? ` level ${result.level}` : ''} for ` +
      `invoice ${input.id} queued.`,
  },
  {
    name: 'get_invoice_pdf',
    title: 'Get invoice PDF',
    description: "An invoice's PDF with the Swiss QR-bill, as a link to the resource to read.",
    area: 'invoices',
    access: 'read',
    contract: contracts.getInvoicePdf,
    side: 'customer',
    params: { id: 'invoice id' },
    summary: (name, input) => `PDF of invoice ${String(input.id)}${typeof name === 'string' ? ` (${name})` : ''}.`,
    // the PDF is read as a resource when needed, not carried in the result
    link: (input, file) => ({
      path: `invoices/customer/${String(input.id)}/pdf`,
      name: isRecord(file) && typeof file.name === 'string' ? file.name : `invoice-${String(input.id)}.pdf`,
      mimeType: 'application/pdf',
      ...(isRecord(file) && typeof file.size === 'number' ? { size: file.size } : {}),
    }),
  },
];
