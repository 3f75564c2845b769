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

const BILL_SHAPE =
  'Lines carry the expense account number, amount (net unless taxincluded) and optionally taxAccount; the service adds ' +
  'the payable control account and the tax. Give vendor_id (or vendornumber) and the vendor\'s own documentNumber.';

const INVOICE_SHAPE =
  'Give customer_id (or customernumber), invDate and items (1–500). Each item has a description, quantity (not 0; negative ' +
  'for a credit) and price (unit price in the invoice currency) and the revenue account number; or it names a catalogue ' +
  'service by service_id or partnumber (list_services), which fills description, unit, price, account and taxAccount unless ' +
  'sent. Optional per item: unit, discount (percent), taxAccount. An item\'s amount is round(quantity × price × ' +
  '(1 − discount/100)), net unless taxincluded; the service adds the tax and the receivable. dueDate defaults to invDate + ' +
  "terms (the customer's terms unless sent); notes are printed on the invoice.";

export const invoiceTools: ToolDeclaration[] = [
  {
    name: 'list_invoices',
    title: 'List customer invoices',
    description:
      'Customer-side documents of both kinds: invoices with items (kind "invoice") and AR transactions with lines (kind ' +
      '"transaction"), ordered by invoice date; filtered by kind, document or invoice number, status, customer or date range.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listDocuments,
    side: 'customer',
    listKey: 'invoices',
    summary: summaries.list('invoice'),
  },
  {
    name: 'get_invoice',
    title: 'Get customer invoice',
    description:
      'One customer-side document by id, of either kind (kind "invoice": items, paid, open, payment_status, reminder_level, ' +
      'emails; kind "transaction": lines), with calculated tax, status and files.',
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
      'Create a customer invoice with items. Without pending it is saved as a draft for review; pending "0" posts it at once ' +
      `(it gets its payment reference; then get_invoice_pdf prints it and email_invoice sends it). ${INVOICE_SHAPE} ` +
      'Alternatively send lines instead of items (each { account, amount, taxAccount?, description? }) to book an AR ' +
      'transaction without items (no PDF); the invoice-only fields (notes, terms, order numbers) do not apply then.',
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
      `Created ${input.lines === undefined ? 'invoice' : 'AR transaction'} ${idOf(result, input)} as ${requestsPosting(input as Pick<CustomerInvoiceInput, 'pending'>) ? 'posted' : 'a draft'}.`,
  },
  {
    name: 'update_invoice',
    title: 'Update customer invoice',
    description:
      'Replace a customer invoice with items: send the complete invoice (the items are replaced). A draft stays a draft ' +
      `unless pending "0" posts it; a posted invoice can be changed only while nothing is paid, and is posted again. ${INVOICE_SHAPE}`,
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateInvoice,
    side: 'customer',
    params: { id: 'invoice id' },
    fixedBody: { type: 'invoice' },
    summary: summaries.updated('invoice'),
  },
  {
    name: 'list_bills',
    title: 'List vendor bills',
    description:
      'Vendor-side documents of both kinds: AP transactions with lines (kind "transaction") and vendor invoices with items ' +
      "(kind \"invoice\"), ordered by invoice date; filtered by kind, the vendor's document number, status, vendor or date range. " +
      'Check for an existing bill before creating one.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listDocuments,
    side: 'vendor',
    listKey: 'bills',
    summary: summaries.list('bill'),
  },
  {
    name: 'get_bill',
    title: 'Get vendor bill',
    description:
      'One vendor-side document by id, of either kind (kind "transaction": an AP transaction with lines; kind "invoice": a ' +
      'vendor invoice with items), with calculated tax, status (draft, posted or reversed) and files.',
    area: 'invoices',
    access: 'read',
    contract: contracts.getDocument,
    side: 'vendor',
    params: { id: 'bill (AP transaction or vendor invoice) id' },
    summary: summaries.get('bill'),
  },
  {
    name: 'aging_report',
    title: 'Aging of receivables or payables',
    description:
      'Open amounts per customer (vc "customer": receivables) or per vendor (vc "vendor": payables) in the base currency as ' +
      'of date (default today), by days past the due date: current (not yet due), 1-30, 31-60, 61-90, over_90, and total; ' +
      'plus totals. Documents, payments and reversals dated after date do not count, so any past date gives the aging as it was then.',
    area: 'invoices',
    access: 'read',
    contract: contracts.agingReport,
    side: 'customer',
    sideInInput: true,
    summary: (result, input) => {
      const total = isRecord(result) && isRecord(result.totals) ? result.totals.total : undefined;
      const rows = isRecord(result) && Array.isArray(result.rows) ? result.rows.length : 0;
      const date = isRecord(result) && typeof result.date === 'string' ? result.date : 'today';
      return `${input.vc === 'vendor' ? 'Payables' : 'Receivables'} as of ${date}: ${plural(rows, input.vc === 'vendor' ? 'vendor' : 'customer')} with open amounts` +
        `${typeof total === 'number' && isRecord(result) && typeof result.currency === 'string' ? `, ${total} ${result.currency} in total` : ''}.`;
    },
  },
  {
    name: 'create_bill',
    title: 'Create vendor bill',
    description: `Record a vendor bill. Without pending it is saved as a draft for review; pending "0" posts it at once. ${BILL_SHAPE}`,
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createTransaction,
    side: 'vendor',
    fixedBody: { type: 'transaction' },
    // the input passed the body schema, so pending is "0", 0 or absent
    summary: (result, input) => `Created bill ${idOf(result, input)} as ${requestsPosting(input as Pick<TransactionInput, 'pending'>) ? 'posted' : 'a draft'}.`,
  },
  {
    name: 'update_bill',
    title: 'Update vendor bill',
    description: `Replace a draft vendor bill: send the complete bill (the lines are replaced). ${BILL_SHAPE}`,
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateTransaction,
    side: 'vendor',
    params: { id: 'bill id' },
    fixedBody: { type: 'transaction' },
    summary: summaries.updated('bill'),
  },
  {
    name: 'approve_bill',
    title: 'Approve and post vendor bill',
    description:
      'Approve a draft bill and post it to the books. Send the complete bill as it should be posted (the same fields as ' +
      'create_bill, plus id): it is saved, then posted. Refused with amount_exceeded above the person\'s approval limit.',
    area: 'invoices',
    access: 'write',
    destructive: true,
    idempotent: false,
    contract: contracts.approveTransaction,
    side: 'vendor',
    params: { id: 'bill id' },
    fixedBody: { type: 'transaction', pending: '0' },
    summary: (result, input) => `Bill ${idOf(result, input)} approved and posted.`,
  },
  {
    name: 'record_payment',
    title: 'Record payment',
    description:
      'Record a payment of a posted document: vc "customer" for money received on an invoice or AR transaction, "vendor" ' +
      'for a bill paid. document_id is the invoice or bill (get_invoice / get_bill show its open amount); amount in the ' +
      "document's currency, > 0 and at most the open amount (partial payments allowed; overpayment is refused); date the " +
      'payment date; account the bank or cash account number (e.g. 1020). For a document in a foreign currency send ' +
      "exchangerate, the rate of the payment day; the difference to the document's rate is booked as exchange gain or loss. " +
      'Refused with amount_exceeded above the person\'s approval limit.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createPayment,
    side: 'customer',
    sideInInput: true,
    summary: (result, input) =>
      `Recorded payment ${idOf(result, input)} of ${String(input.amount)} on ${input.vc === 'vendor' ? 'bill' : 'invoice'} ${String(input.document_id)}.`,
  },
  {
    name: 'list_services',
    title: 'List services',
    description:
      'The services catalogue: partnumber, description, unit, price and currency, revenue/expense and tax account. ' +
      'Filter with active (true for services to offer on new invoices) and q (text in description or partnumber). ' +
      'Name a service on an invoice item by service_id or partnumber to take its description, unit, price and accounts.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listServices,
    listKey: 'services',
    summary: summaries.list('service'),
  },
  {
    name: 'list_workstation',
    title: 'Drafts awaiting review',
    description:
      'Drafts on both sides (bills and invoices, with or without items), oldest first, each with who created it and via ' +
      'what (API key or AI connection). Review a draft with get_bill / get_invoice, then approve it.',
    area: 'invoices',
    access: 'read',
    contract: contracts.listWorkstation,
    listKey: 'drafts',
    summary: summaries.list('draft'),
  },
  {
    name: 'email_invoice',
    title: 'E-mail customer invoice',
    description:
      "Send a posted customer invoice (with items) as PDF by e-mail: to the customer's e-mail address unless to is given; " +
      'optional cc, subject and message. The message is queued and sent in the background; get_invoice lists it under emails.',
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.emailInvoice,
    params: { id: 'invoice id' },
    summary: (result, input) => `Invoice ${input.id} queued for e-mail${isRecord(result) && typeof result.message_id === 'string' ? ` (${result.message_id})` : ''}.`,
  },
  {
    name: 'send_reminder',
    title: 'Send payment reminder',
    description:
      "Send the next payment reminder (level 1, 2, then 3; no 4th) for a posted, overdue, unpaid customer invoice to the customer's " +
      'e-mail, the invoice PDF attached; optional message, and an optional fee in the invoice currency, booked as its own posted ' +
      "customer transaction on the company's reminder-fee account. Queued and sent in the background; get_invoice shows reminder_level.",
    area: 'invoices',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.sendReminder,
    params: { id: 'invoice id' },
    summary: (result, input) => `Reminder${isRecord(result) && typeof result.level === 'number' ? ` level ${result.level}` : ''} for invoice ${input.id} queued.`,
  },
  {
    name: 'get_invoice_pdf',
    title: 'Get invoice PDF',
    description:
      'The PDF of an invoice (items, tax, totals; posted customer invoices in CHF/EUR with the Swiss QR-bill payment ' +
      'slip) as an embedded resource (application/pdf, base64 blob).',
    area: 'invoices',
    access: 'read',
    contract: contracts.getInvoicePdf,
    side: 'customer',
    params: { id: 'invoice id' },
    summary: (name, input) => `PDF of invoice ${String(input.id)}${typeof name === 'string' ? ` (${name})` : ''}.`,
  },
];
