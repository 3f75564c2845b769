/**
 * Italian texts of the product: the app, documents (PDFs, e-mails, the QR-bill's payment part),
 * VAT, bank and year-end reports. Keys are grouped by the part that owns them; a key that
 * the app and a document share is written once, in the section of the document.
 * `i18n/messages.test` fails when any language lacks a key of another.
 */
import type { Messages } from './en.ts';

export const it: Messages = {
  // common
  'common.language': 'Italiano',
  'common.yes': 'Sì',
  'common.no': 'No',

  // app (the gateway's pages)
  'app.title': 'Contabilità',

  // documents (invoices, credit notes, quotes, reminders, e-mails)
  'document.invoice': 'Fattura',
  'document.paymentPart': 'Sezione pagamento',

  // vat
  'vat.return': 'Rendiconto IVA',

  // bank
  'bank.statement': 'Estratto conto',
  'bank.account.title': 'Conto bancario {name}',
  'bank.account.upload': 'Caricare un estratto conto',
  'bank.account.uploadHint': 'camt.053 o camt.054 (XML) o CSV, fino a 10 MB.',
  'bank.account.uploadButton': 'Importare',
  'bank.account.imported':
    '{imported} movimenti importati, {duplicates} già presenti, {matched} registrati automaticamente.',
  'bank.account.unbooked': 'Movimenti non registrati',
  'bank.account.noUnbooked': 'Tutti i movimenti sono registrati.',
  'bank.account.date': 'Data',
  'bank.account.counterparty': 'Controparte',
  'bank.account.text': 'Testo',
  'bank.account.amount': 'Importo',
  'bank.account.proposal': 'Proposta migliore',
  'bank.account.noProposal': 'Nessuna proposta: registrare a mano o creare una regola.',
  'bank.account.proposalDocument': 'Pagamento di {number} (aperto {open}), punteggio {score}',
  'bank.account.proposalRule': 'Regola «{rule}»: {booking}, punteggio {score}',
  'bank.account.bookTo': 'registrare sul conto {account}',
  'bank.account.settle': 'saldare {number}, differenza {difference} su {account}',
  'bank.account.accept': 'Accettare',
  'bank.account.accepted': 'Il movimento {id} è registrato.',
  'bank.account.bookedByHand': 'Registrati a mano',
  'bank.account.account': 'Conto',
  'bank.account.makeRule': 'Creare una regola',
  'bank.account.ruleMade': 'La regola bancaria {id} è creata; propone questa registrazione per movimenti simili.',
  'bank.account.reconciliation': 'Riconciliazione',
  'bank.account.statementBalance': 'Saldo secondo l’estratto',
  'bank.account.ledgerBalance': 'Saldo contabile',
  'bank.account.difference': 'Differenza',
  'bank.account.noStatement': 'Nessun estratto con saldo finale ancora importato.',
  'bank.account.reconciledTo': 'Riconciliato fino al {date}.',
  'bank.account.reconcile': 'Riconciliare',
  'bank.account.reconciled': '{count} movimenti sono riconciliati fino al {date}.',
  'bank.account.asOf': 'Al',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilancio',
};
