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
  'vat.returns': 'MWST-Abrechnungen',
  'vat.period': 'Abrechnungsperiode',
  'vat.from': 'Von',
  'vat.to': 'Bis',
  'vat.type': 'Art',
  'vat.type.original': 'Abrechnung',
  'vat.type.correction': 'Korrekturabrechnung',
  'vat.prepare': 'Abrechnung erstellen',
  'vat.status': 'Status',
  'vat.status.draft': 'Entwurf',
  'vat.status.settled': 'Verbucht',
  'vat.method.effective': 'Effektive Abrechnungsmethode',
  'vat.method.net_tax': 'Saldosteuersatzmethode',
  'vat.figure': 'Ziffer',
  'vat.amount': 'Betrag',
  'vat.tax': 'Steuer',
  'vat.base': 'Entgelt',
  'vat.document': 'Beleg',
  'vat.date': 'Datum',
  'vat.payable': 'Zu bezahlen',
  'vat.settle': 'Abrechnung verbuchen',
  'vat.settledBy': 'Verbucht mit Buchung {id}',
  'vat.lines': 'Buchungen zu Ziffer {figure}',
  'vat.none': 'Noch keine MWST-Abrechnungen.',
  'vat.back': 'Alle MWST-Abrechnungen',
  'vat.figure.200': 'Total der vereinbarten bzw. vereinnahmten Entgelte',
  'vat.figure.220': 'Von der Steuer befreite Leistungen (u. a. Exporte)',
  'vat.figure.221': 'Leistungen im Ausland',
  'vat.figure.230': 'Von der Steuer ausgenommene Leistungen',
  'vat.figure.280': 'Diverses',
  'vat.figure.289': 'Total Abzüge',
  'vat.figure.299': 'Steuerbarer Gesamtumsatz',
  'vat.figure.302': 'Leistungen zum Normalsatz',
  'vat.figure.312': 'Leistungen zum reduzierten Satz',
  'vat.figure.342': 'Leistungen zum Beherbergungssatz',
  'vat.figure.382': 'Bezugsteuer',
  'vat.figure.322': 'Leistungen zum 1. Saldosteuersatz',
  'vat.figure.332': 'Leistungen zum 2. Saldosteuersatz',
  'vat.figure.399': 'Total geschuldete Steuer',
  'vat.figure.400': 'Vorsteuer auf Material- und Dienstleistungsaufwand',
  'vat.figure.405': 'Vorsteuer auf Investitionen und übrigem Betriebsaufwand',
  'vat.figure.479': 'Total Vorsteuer',
  'vat.figure.500': 'Zu bezahlender Betrag',
  'vat.figure.510': 'Guthaben der steuerpflichtigen Person',

  // bank
  'bank.statement': 'Kontoauszug',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilanz',
};
