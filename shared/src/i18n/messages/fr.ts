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
  'bank.account.title': 'Compte bancaire {name}',
  'bank.account.upload': 'Importer un relevé de compte',
  'bank.account.uploadHint': 'camt.053 ou camt.054 (XML) ou CSV, jusqu’à 10 Mo.',
  'bank.account.uploadButton': 'Importer',
  'bank.account.imported':
    '{imported} écritures importées, {duplicates} déjà connues, {matched} comptabilisées automatiquement.',
  'bank.account.unbooked': 'Mouvements non comptabilisés',
  'bank.account.noUnbooked': 'Tous les mouvements sont comptabilisés.',
  'bank.account.date': 'Date',
  'bank.account.counterparty': 'Contrepartie',
  'bank.account.text': 'Texte',
  'bank.account.amount': 'Montant',
  'bank.account.proposal': 'Meilleure proposition',
  'bank.account.noProposal': 'Aucune proposition : comptabiliser à la main ou créer une règle.',
  'bank.account.proposalDocument': 'Paiement de {number} (ouvert {open}), score {score}',
  'bank.account.proposalRule': 'Règle « {rule} » : {booking}, score {score}',
  'bank.account.bookTo': 'comptabiliser sur le compte {account}',
  'bank.account.settle': 'solder {number}, différence {difference} sur {account}',
  'bank.account.accept': 'Accepter',
  'bank.account.accepted': 'Le mouvement {id} est comptabilisé.',
  'bank.account.bookedByHand': 'Comptabilisés à la main',
  'bank.account.account': 'Compte',
  'bank.account.makeRule': 'Créer une règle',
  'bank.account.ruleMade':
    'La règle bancaire {id} est créée ; elle propose cette écriture pour les mouvements semblables.',
  'bank.account.reconciliation': 'Rapprochement',
  'bank.account.statementBalance': 'Solde selon le relevé',
  'bank.account.ledgerBalance': 'Solde comptable',
  'bank.account.difference': 'Différence',
  'bank.account.noStatement': 'Aucun relevé avec solde final importé pour l’instant.',
  'bank.account.reconciledTo': 'Rapproché jusqu’au {date}.',
  'bank.account.reconcile': 'Rapprocher',
  'bank.account.reconciled': '{count} mouvements sont rapprochés jusqu’au {date}.',
  'bank.account.asOf': 'Au',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilan',
};
