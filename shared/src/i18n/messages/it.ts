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
  'vat.returns': 'Rendiconti IVA',
  'vat.period': 'Periodo di rendiconto',
  'vat.from': 'Dal',
  'vat.to': 'Al',
  'vat.type': 'Genere',
  'vat.type.original': 'Rendiconto',
  'vat.type.correction': 'Rendiconto correttivo',
  'vat.prepare': 'Allestire il rendiconto',
  'vat.status': 'Stato',
  'vat.status.draft': 'Bozza',
  'vat.status.settled': 'Contabilizzato',
  'vat.method.effective': 'Metodo di rendiconto effettivo',
  'vat.method.net_tax': 'Metodo delle aliquote saldo',
  'vat.figure': 'Cifra',
  'vat.amount': 'Importo',
  'vat.tax': 'Imposta',
  'vat.base': 'Controprestazione',
  'vat.document': 'Documento',
  'vat.date': 'Data',
  'vat.payable': 'Da pagare',
  'vat.settle': 'Contabilizzare il rendiconto',
  'vat.settledBy': 'Contabilizzato con la registrazione {id}',
  'vat.lines': 'Registrazioni della cifra {figure}',
  'vat.none': 'Ancora nessun rendiconto IVA.',
  'vat.back': 'Tutti i rendiconti IVA',
  'vat.figure.200': 'Totale delle controprestazioni convenute o ricevute',
  'vat.figure.220': "Prestazioni esenti dall'imposta (tra cui esportazioni)",
  'vat.figure.221': "Prestazioni all'estero",
  'vat.figure.230': "Prestazioni escluse dall'imposta",
  'vat.figure.280': 'Diversi',
  'vat.figure.289': 'Totale delle deduzioni',
  'vat.figure.299': "Cifra d'affari imponibile",
  'vat.figure.302': "Prestazioni all'aliquota normale",
  'vat.figure.312': "Prestazioni all'aliquota ridotta",
  'vat.figure.342': "Prestazioni all'aliquota speciale per l'alloggio",
  'vat.figure.382': "Imposta sull'acquisto",
  'vat.figure.322': 'Prestazioni alla prima aliquota saldo',
  'vat.figure.332': 'Prestazioni alla seconda aliquota saldo',
  'vat.figure.399': "Totale dell'imposta dovuta",
  'vat.figure.400': 'Imposta precedente su costi del materiale e prestazioni di servizi',
  'vat.figure.405': "Imposta precedente su investimenti e altri costi d'esercizio",
  'vat.figure.479': "Totale dell'imposta precedente",
  'vat.figure.500': 'Importo da pagare',
  'vat.figure.510': 'Credito a favore del contribuente',

  // bank
  'bank.statement': 'Estratto conto',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilancio',
};
