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

  // bank
  'bank.statement': 'Bank statement',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Balance sheet',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
