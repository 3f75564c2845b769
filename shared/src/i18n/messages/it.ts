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
};
