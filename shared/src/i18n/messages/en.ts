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

  // vat
  'vat.return': 'VAT return',
  'vat.returns': 'VAT returns',
  'vat.period': 'Period',
  'vat.from': 'From',
  'vat.to': 'To',
  'vat.type': 'Type',
  'vat.type.original': 'Original return',
  'vat.type.correction': 'Correction',
  'vat.prepare': 'Prepare return',
  'vat.status': 'Status',
  'vat.status.draft': 'Draft',
  'vat.status.settled': 'Settled',
  'vat.method.effective': 'Effective method',
  'vat.method.net_tax': 'Net tax rate method',
  'vat.figure': 'Figure',
  'vat.amount': 'Amount',
  'vat.tax': 'Tax',
  'vat.base': 'Consideration',
  'vat.document': 'Document',
  'vat.date': 'Date',
  'vat.payable': 'Payable',
  'vat.settle': 'Settle: post the VAT settlement',
  'vat.settledBy': 'Settled by journal entry {id}',
  'vat.lines': 'Lines behind figure {figure}',
  'vat.none': 'No VAT returns yet.',
  'vat.back': 'All VAT returns',
  'vat.figure.200': 'Total amount of agreed or collected consideration',
  'vat.figure.220': 'Supplies exempt from the tax (incl. exports)',
  'vat.figure.221': 'Supplies provided abroad',
  'vat.figure.230': 'Supplies excluded from the tax',
  'vat.figure.280': 'Miscellaneous',
  'vat.figure.289': 'Total deductions',
  'vat.figure.299': 'Taxable turnover',
  'vat.figure.302': 'Supplies at the standard rate',
  'vat.figure.312': 'Supplies at the reduced rate',
  'vat.figure.342': 'Supplies at the accommodation rate',
  'vat.figure.382': 'Acquisition tax',
  'vat.figure.322': 'Supplies at the first net tax rate',
  'vat.figure.332': 'Supplies at the second net tax rate',
  'vat.figure.399': 'Total tax due',
  'vat.figure.400': 'Input tax on cost of materials and services',
  'vat.figure.405': 'Input tax on investments and other operating costs',
  'vat.figure.479': 'Total input tax',
  'vat.figure.500': 'Amount payable',
  'vat.figure.510': 'Credit in favour of the taxable person',

  // bank
  'bank.statement': 'Bank statement',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Balance sheet',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
