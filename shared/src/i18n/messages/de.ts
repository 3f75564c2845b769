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
  'bank.account.title': 'Bankkonto {name}',
  'bank.account.upload': 'Kontoauszug hochladen',
  'bank.account.uploadHint': 'camt.053 oder camt.054 (XML) oder CSV, bis 10 MB.',
  'bank.account.uploadButton': 'Importieren',
  'bank.account.imported':
    '{imported} Buchungen importiert, {duplicates} bereits vorhanden, {matched} automatisch verbucht.',
  'bank.account.unbooked': 'Nicht verbuchte Bewegungen',
  'bank.account.noUnbooked': 'Alle Bewegungen sind verbucht.',
  'bank.account.date': 'Datum',
  'bank.account.counterparty': 'Gegenpartei',
  'bank.account.text': 'Text',
  'bank.account.amount': 'Betrag',
  'bank.account.proposal': 'Bester Vorschlag',
  'bank.account.noProposal': 'Kein Vorschlag: von Hand verbuchen oder eine Regel erfassen.',
  'bank.account.proposalDocument': 'Zahlung von {number} (offen {open}), Punkte {score}',
  'bank.account.proposalRule': 'Regel «{rule}»: {booking}, Punkte {score}',
  'bank.account.bookTo': 'auf Konto {account} buchen',
  'bank.account.settle': '{number} ausgleichen, Differenz {difference} auf {account}',
  'bank.account.accept': 'Übernehmen',
  'bank.account.accepted': 'Bewegung {id} ist verbucht.',
  'bank.account.bookedByHand': 'Von Hand verbucht',
  'bank.account.account': 'Konto',
  'bank.account.makeRule': 'Regel erstellen',
  'bank.account.ruleMade': 'Bankregel {id} ist erstellt; sie schlägt diese Buchung für gleichartige Bewegungen vor.',
  'bank.account.reconciliation': 'Abstimmung',
  'bank.account.statementBalance': 'Saldo gemäss Kontoauszug',
  'bank.account.ledgerBalance': 'Saldo in der Buchhaltung',
  'bank.account.difference': 'Differenz',
  'bank.account.noStatement': 'Noch kein Kontoauszug mit Schlusssaldo importiert.',
  'bank.account.reconciledTo': 'Abgestimmt bis {date}.',
  'bank.account.reconcile': 'Abstimmen',
  'bank.account.reconciled': '{count} Bewegungen sind bis {date} abgestimmt.',
  'bank.account.asOf': 'Per',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilanz',
};
