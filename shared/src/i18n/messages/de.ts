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
  'yearEnd.assets.title': 'Anlagen',
  'yearEnd.assets.hint':
    'Das Anlageverzeichnis. Ein Abschreibungslauf bucht alle Anlagen bis zu einem Datum in einer Buchung; ' +
    'ein zweiter Lauf bis zum selben Datum bucht nichts.',
  'yearEnd.assets.none': 'Es sind keine Anlagen erfasst.',
  'yearEnd.assets.name': 'Bezeichnung',
  'yearEnd.assets.account': 'Anlagekonto',
  'yearEnd.assets.acquired': 'Anschaffung',
  'yearEnd.assets.cost': 'Anschaffungswert',
  'yearEnd.assets.method': 'Methode',
  'yearEnd.assets.linear': 'linear',
  'yearEnd.assets.declining': 'degressiv',
  'yearEnd.assets.depreciated': 'Abgeschrieben',
  'yearEnd.assets.bookValue': 'Buchwert',
  'yearEnd.assets.disposed': 'Abgang am {date}',
  'yearEnd.assets.run': 'Abschreibungen buchen',
  'yearEnd.assets.runTo': 'Bis',
  'yearEnd.assets.booked': 'Abschreibungen als Buchung {id} gebucht.',
  'yearEnd.assets.nothingDue': 'Nichts fällig: keine Buchung.',
  'yearEnd.assets.add': 'Anlage erfassen',
  'yearEnd.assets.expenseAccount': 'Abschreibungskonto',
  'yearEnd.assets.accumulatedAccount': 'Wertberichtigungskonto (leer: direkt auf der Anlage)',
  'yearEnd.assets.residual': 'Restwert',
  'yearEnd.assets.lifeMonths': 'Nutzungsdauer in Monaten (linear)',
  'yearEnd.assets.rate': 'Satz pro Jahr in % (degressiv)',
  'yearEnd.assets.frequency': 'Gebucht pro',
  'yearEnd.assets.month': 'Monat',
  'yearEnd.assets.quarter': 'Quartal',
  'yearEnd.assets.year': 'Jahr',
  'yearEnd.assets.created': 'Die Anlage ist erfasst.',
  'yearEnd.assets.schedule': 'Anlagespiegel',
  'yearEnd.revaluation.title': 'Fremdwährungsbewertung',
  'yearEnd.revaluation.hint':
    'Offene Rechnungen, Lieferantenrechnungen und Bankkonten in Fremdwährung werden zu den ' +
    'Stichtagskursen bewertet; die Differenzen werden auf das Kursdifferenzenkonto gebucht. Jedes Datum ' +
    'wird einmal bewertet.',
  'yearEnd.revaluation.date': 'Stichtag',
  'yearEnd.revaluation.rate': 'Stichtagskurs {currency}',
  'yearEnd.revaluation.reverse': 'Am Folgetag stornieren',
  'yearEnd.revaluation.submit': 'Bewerten',
  'yearEnd.revaluation.item': 'Posten',
  'yearEnd.revaluation.open': 'Offen',
  'yearEnd.revaluation.oldValue': 'Buchwert',
  'yearEnd.revaluation.newValue': 'Wert zum Stichtagskurs',
  'yearEnd.revaluation.difference': 'Differenz',
  'yearEnd.revaluation.booked': 'Als Buchung {id} gebucht.',
  'yearEnd.revaluation.nothing': 'Kein Posten hat seinen Wert geändert: keine Buchung.',
  'yearEnd.revaluation.customer': 'Rechnung {id}',
  'yearEnd.revaluation.vendor': 'Lieferantenrechnung {id}',
  'yearEnd.revaluation.bank': 'Bankkonto {id}',
};
