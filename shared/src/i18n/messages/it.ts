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

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilancio',
  'yearEnd.assets.title': 'Immobilizzazioni',
  'yearEnd.assets.hint':
    'Il registro dei cespiti. Un calcolo degli ammortamenti registra tutti i cespiti fino a una data in ' +
    'una registrazione; ripeterlo alla stessa data non registra nulla.',
  'yearEnd.assets.none': 'Nessun cespite registrato.',
  'yearEnd.assets.name': 'Designazione',
  'yearEnd.assets.account': 'Conto del cespite',
  'yearEnd.assets.acquired': 'Acquisizione',
  'yearEnd.assets.cost': 'Costo d’acquisto',
  'yearEnd.assets.method': 'Metodo',
  'yearEnd.assets.linear': 'lineare',
  'yearEnd.assets.declining': 'decrescente',
  'yearEnd.assets.depreciated': 'Ammortizzato',
  'yearEnd.assets.bookValue': 'Valore contabile',
  'yearEnd.assets.disposed': 'dismesso il {date}',
  'yearEnd.assets.run': 'Registrare gli ammortamenti',
  'yearEnd.assets.runTo': 'Fino al',
  'yearEnd.assets.booked': 'Ammortamenti registrati con la registrazione {id}.',
  'yearEnd.assets.nothingDue': 'Nulla era dovuto: nessuna registrazione.',
  'yearEnd.assets.add': 'Registrare un cespite',
  'yearEnd.assets.expenseAccount': 'Conto ammortamenti',
  'yearEnd.assets.accumulatedAccount': 'Conto di rettifica di valore (vuoto: direttamente sul cespite)',
  'yearEnd.assets.residual': 'Valore residuo',
  'yearEnd.assets.lifeMonths': 'Durata di utilizzo in mesi (lineare)',
  'yearEnd.assets.rate': 'Aliquota annua in % (decrescente)',
  'yearEnd.assets.frequency': 'Registrato per',
  'yearEnd.assets.month': 'mese',
  'yearEnd.assets.quarter': 'trimestre',
  'yearEnd.assets.year': 'anno',
  'yearEnd.assets.created': 'Il cespite è registrato.',
  'yearEnd.assets.schedule': 'Tabella dei cespiti',
  'yearEnd.revaluation.title': 'Rivalutazione valute',
  'yearEnd.revaluation.hint':
    'Fatture, fatture fornitori e conti bancari aperti in valuta estera sono valutati ai corsi di ' +
    'chiusura; le differenze sono registrate sul conto differenze di cambio. Ogni data è rivalutata una ' +
    'sola volta.',
  'yearEnd.revaluation.date': 'Data di chiusura',
  'yearEnd.revaluation.rate': 'Corso di chiusura {currency}',
  'yearEnd.revaluation.reverse': 'Stornare il giorno seguente',
  'yearEnd.revaluation.submit': 'Rivalutare',
  'yearEnd.revaluation.item': 'Voce',
  'yearEnd.revaluation.open': 'Aperto',
  'yearEnd.revaluation.oldValue': 'Valore contabile',
  'yearEnd.revaluation.newValue': 'Valore al corso di chiusura',
  'yearEnd.revaluation.difference': 'Differenza',
  'yearEnd.revaluation.booked': 'Registrato con la registrazione {id}.',
  'yearEnd.revaluation.nothing': 'Nessuna voce ha cambiato valore: nessuna registrazione.',
  'yearEnd.revaluation.customer': 'Fattura {id}',
  'yearEnd.revaluation.vendor': 'Fattura fornitore {id}',
  'yearEnd.revaluation.bank': 'Conto bancario {id}',
};
