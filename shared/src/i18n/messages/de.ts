/**
 * German texts of the product: the app, documents (PDFs, e-mails, the QR-bill's payment part),
 * VAT, bank and year-end reports. Keys are grouped by the part that owns them; a key that
 * the app and a document share is written once, in the section of the document.
 * `i18n/messages.test` fails when any language lacks a key of another.
 */
import type { Messages } from './en.ts';

export const de: Messages = {
  // common
  'common.language': 'Deutsch',
  'common.yes': 'Ja',
  'common.no': 'Nein',

  // app (the gateway's pages)
  'app.title': 'Buchhaltung',

  // documents (invoices, credit notes, quotes, reminders, e-mails)
  'document.invoice': 'Rechnung',
  'document.paymentPart': 'Zahlteil',

  // vat
  'vat.return': 'MWST-Abrechnung',

  // bank
  'bank.statement': 'Kontoauszug',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilanz',
};
