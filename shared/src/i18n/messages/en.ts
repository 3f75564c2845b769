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
  'bank.account.title': 'Bank account {name}',
  'bank.account.upload': 'Upload a statement',
  'bank.account.uploadHint': 'camt.053 or camt.054 (XML) or CSV, up to 10 MB.',
  'bank.account.uploadButton': 'Import',
  'bank.account.imported': '{imported} lines imported, {duplicates} already known, {matched} booked automatically.',
  'bank.account.unbooked': 'Unbooked lines',
  'bank.account.noUnbooked': 'Every line is booked.',
  'bank.account.date': 'Date',
  'bank.account.counterparty': 'Counterparty',
  'bank.account.text': 'Text',
  'bank.account.amount': 'Amount',
  'bank.account.proposal': 'Best proposal',
  'bank.account.noProposal': 'No proposal: book it in the bank page or write a rule.',
  'bank.account.proposalDocument': 'Payment of {number} (open {open}), score {score}',
  'bank.account.proposalRule': 'Rule “{rule}”: {booking}, score {score}',
  'bank.account.bookTo': 'book to account {account}',
  'bank.account.settle': 'settle {number}, difference {difference} to {account}',
  'bank.account.accept': 'Accept',
  'bank.account.accepted': 'Line {id} is booked.',
  'bank.account.bookedByHand': 'Booked by hand',
  'bank.account.account': 'Account',
  'bank.account.makeRule': 'Make a rule',
  'bank.account.ruleMade': 'Bank rule {id} is created; it proposes this booking for lines like this one.',
  'bank.account.reconciliation': 'Reconciliation',
  'bank.account.statementBalance': 'Statement balance',
  'bank.account.ledgerBalance': 'Ledger balance',
  'bank.account.difference': 'Difference',
  'bank.account.noStatement': 'No statement with a closing balance imported yet.',
  'bank.account.reconciledTo': 'Reconciled up to {date}.',
  'bank.account.reconcile': 'Reconcile',
  'bank.account.reconciled': '{count} lines are reconciled up to {date}.',
  'bank.account.asOf': 'On',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Balance sheet',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
