/**
 * English texts of the product: the app, documents (PDFs, e-mails, the QR-bill's payment part),
 * VAT, bank and year-end reports. Keys are grouped by the part that owns them; a key that
 * the app and a document share is written once, in the section of the document.
 * `i18n/messages.test` fails when any language lacks a key of another.
 */
export const en = {
  // common
  'common.language': 'English',
  'common.yes': 'Yes',
  'common.no': 'No',

  // app (the gateway's pages)
  'app.title': 'Books',

  // documents (invoices, credit notes, quotes, reminders, e-mails)
  'document.invoice': 'Invoice',
  'document.paymentPart': 'Payment part',
  'document.vendorInvoice': 'Vendor invoice',
  'document.creditNote': 'Credit note',
  'document.quote': 'Quote',
  'document.reminder.1': 'Payment reminder',
  'document.reminder.2': 'Second payment reminder',
  'document.reminder.3': 'Final payment reminder',
  'document.draft': 'Draft — not for payment',
  'document.date': 'Date',
  'document.invoiceDate': 'Invoice date',
  'document.dueDate': 'Due date',
  'document.orderNumber': 'Order number',
  'document.yourOrder': 'Your order',
  'document.reference': 'Reference',
  'document.validUntil': 'Valid until',
  'document.creditOf': 'Credit for invoice {number}',
  'document.reason': 'Reason',
  'document.column.description': 'Description',
  'document.column.quantity': 'Quantity',
  'document.column.unit': 'Unit',
  'document.column.price': 'Price',
  'document.column.discount': 'Disc.',
  'document.column.amount': 'Amount',
  'document.net': 'Net',
  'document.vat': 'VAT{rate} on {base}',
  'document.total': 'Total {currency}',
  'document.open': 'Open {currency}',
  'document.payableImmediately': 'Payable immediately.',
  'document.payableWithin': 'Payable within {days} days (due {date}).',
  'document.payableBy': 'Payable by {date}.',
  'document.creditNoteUse': 'We will set this credit against your open invoices or refund it.',
  'document.quoteValidity': 'This quote is valid until {date}.',
  'document.reminderIntro.1': 'Perhaps it has escaped your attention: the following invoices are still open.',
  'document.reminderIntro.2': 'Despite our reminder, the following invoices are still open.',
  'document.reminderIntro.3': 'Despite two reminders, the following invoices are still open.',
  'document.reminderFee': 'Reminder fee',
  'document.reminderDue': 'Please pay {amount} by {date}.',
  'document.reminderTotal': 'Total due {currency}',
  'document.qrMessage': 'Invoice {number}',
  'document.qrReminderMessage': 'Reminder {number}',
  'document.period.quarter': 'Q{quarter} {year}',
  'document.email.greeting': 'Dear customer,',
  'document.email.closing': 'Kind regards',
  'document.email.invoiceSubject': 'Invoice {number} from {company}',
  'document.email.invoiceBody': 'please find attached our invoice {number} of {date} over {amount}.',
  'document.email.dueOn': 'It is due on {date}.',
  'document.email.creditNoteSubject': 'Credit note {number} from {company}',
  'document.email.creditNoteBody': 'please find attached our credit note {number} of {date} over {amount}.',
  'document.email.quoteSubject': 'Quote {number} from {company}',
  'document.email.quoteBody':
    'please find attached our quote {number} over {amount}, valid until {date}. We look forward to your order.',
  'document.email.reminderSubject': '{title}: invoice {number} from {company}',
  'document.email.reminderBody.1':
    'perhaps it has escaped your attention: our invoice {number} of {date} over {amount} was due on ' +
    '{due}, and {open} are still open. We kindly ask you to pay the open amount within the next 10 days. ' +
    'If you have paid in the meantime, please disregard this reminder.',
  'document.email.reminderBody.2':
    'despite our first reminder, our invoice {number} of {date} over {amount} was due on {due}, and ' +
    '{open} are still open. Please pay the open amount within 10 days.',
  'document.email.reminderBody.3':
    'this is our final reminder: our invoice {number} of {date} over {amount} was due on {due}, and ' +
    '{open} are still open despite two reminders. Unless the open amount reaches us within 10 days, we ' +
    'will hand the claim over to debt collection without further notice.',
  'document.email.reminderFee':
    'A reminder fee of {amount} is charged with document {number}; please pay it together with the open amount.',
  'document.email.reminderLevel': 'Reminder level {level}; the invoice is attached once more.',
  'document.email.dunningSubject': '{title} from {company}',
  'document.email.dunningBody': 'please find attached our reminder over {amount}, payable by {date}.',
  'sales.quotes': 'Quotes',
  'sales.recurring': 'Recurring invoices',
  'sales.dunning': 'Dunning',
  'sales.number': 'Number',
  'sales.customer': 'Customer',
  'sales.status': 'Status',
  'sales.amount': 'Amount',
  'sales.status.draft': 'Draft',
  'sales.status.sent': 'Sent',
  'sales.status.accepted': 'Accepted',
  'sales.status.declined': 'Declined',
  'sales.status.expired': 'Expired',
  'sales.status.invoiced': 'Invoiced',
  'sales.status.active': 'Active',
  'sales.status.paused': 'Paused',
  'sales.none': 'Nothing here yet.',
  'sales.convert': 'Create invoice',
  'sales.schedule': 'Schedule',
  'sales.nextDate': 'Next invoice',
  'sales.mode': 'Mode',
  'sales.pause': 'Pause',
  'sales.resume': 'Resume',
  'sales.every': 'every {n} {unit}',
  'sales.dunningDate': 'Reminder date',
  'sales.dunningPropose': 'Show proposal',
  'sales.dunningSend': 'Send reminders',
  'sales.dunningSent': '{count} reminders sent.',
  'sales.level': 'Level',
  'sales.fee': 'Fee',
  'sales.open': 'Open',
  'sales.invoice': 'Invoice',
  'sales.runs': 'Earlier runs',
  'sales.language': 'Language',

  // vat
  'vat.return': 'VAT return',

  // bank
  'bank.statement': 'Bank statement',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Balance sheet',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
