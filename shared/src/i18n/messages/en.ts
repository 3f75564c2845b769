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
  'yearEnd.assets.title': 'Fixed assets',
  'yearEnd.assets.hint':
    'The asset register. A depreciation run books every asset up to a date as one journal entry; running ' +
    'it again to the same date books nothing.',
  'yearEnd.assets.none': 'There are no fixed assets.',
  'yearEnd.assets.name': 'Name',
  'yearEnd.assets.account': 'Asset account',
  'yearEnd.assets.acquired': 'Acquired',
  'yearEnd.assets.cost': 'Cost',
  'yearEnd.assets.method': 'Method',
  'yearEnd.assets.linear': 'straight-line',
  'yearEnd.assets.declining': 'declining balance',
  'yearEnd.assets.depreciated': 'Depreciated',
  'yearEnd.assets.bookValue': 'Book value',
  'yearEnd.assets.disposed': 'disposed of on {date}',
  'yearEnd.assets.run': 'Book depreciation',
  'yearEnd.assets.runTo': 'Up to',
  'yearEnd.assets.booked': 'Depreciation booked as journal entry {id}.',
  'yearEnd.assets.nothingDue': 'Nothing was due: no entry booked.',
  'yearEnd.assets.add': 'Add a fixed asset',
  'yearEnd.assets.expenseAccount': 'Depreciation account',
  'yearEnd.assets.accumulatedAccount': 'Accumulated depreciation account (empty: booked directly on the asset)',
  'yearEnd.assets.residual': 'Residual value',
  'yearEnd.assets.lifeMonths': 'Useful life in months (straight-line)',
  'yearEnd.assets.rate': 'Rate per year in % (declining balance)',
  'yearEnd.assets.frequency': 'Booked each',
  'yearEnd.assets.month': 'month',
  'yearEnd.assets.quarter': 'quarter',
  'yearEnd.assets.year': 'year',
  'yearEnd.assets.created': 'The asset is added.',
  'yearEnd.assets.schedule': 'Asset schedule',
  'yearEnd.revaluation.title': 'Revaluation',
  'yearEnd.revaluation.hint':
    'Open foreign-currency invoices, bills and bank accounts are valued at the closing rates; the ' +
    'differences are booked against the exchange-rate account. Each date is revalued once.',
  'yearEnd.revaluation.date': 'Closing date',
  'yearEnd.revaluation.rate': 'Closing rate {currency}',
  'yearEnd.revaluation.reverse': 'Reverse on the next day',
  'yearEnd.revaluation.submit': 'Revalue',
  'yearEnd.revaluation.item': 'Item',
  'yearEnd.revaluation.open': 'Open',
  'yearEnd.revaluation.oldValue': 'Booked value',
  'yearEnd.revaluation.newValue': 'Value at closing rate',
  'yearEnd.revaluation.difference': 'Difference',
  'yearEnd.revaluation.booked': 'Booked as journal entry {id}.',
  'yearEnd.revaluation.nothing': 'No item changed value: nothing booked.',
  'yearEnd.revaluation.customer': 'Invoice {id}',
  'yearEnd.revaluation.vendor': 'Bill {id}',
  'yearEnd.revaluation.bank': 'Bank account {id}',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
