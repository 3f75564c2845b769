/**
 * French texts of the product: the app, documents (PDFs, e-mails, the QR-bill's payment part),
 * VAT, bank and year-end reports. Keys are grouped by the part that owns them; a key that
 * the app and a document share is written once, in the section of the document.
 * `i18n/messages.test` fails when any language lacks a key of another.
 */
import type { Messages } from './en.ts';

export const fr: Messages = {
  // common
  'common.language': 'Français',
  'common.yes': 'Oui',
  'common.no': 'Non',

  // app (the gateway's pages)
  'app.title': 'Comptabilité',

  // documents (invoices, credit notes, quotes, reminders, e-mails)
  'document.invoice': 'Facture',
  'document.paymentPart': 'Section paiement',

  // vat
  'vat.return': 'Décompte TVA',

  // bank
  'bank.statement': 'Relevé de compte',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilan',
};
