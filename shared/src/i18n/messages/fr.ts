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
  'vat.returns': 'Décomptes TVA',
  'vat.period': 'Période de décompte',
  'vat.from': 'Du',
  'vat.to': 'Au',
  'vat.type': 'Genre',
  'vat.type.original': 'Décompte',
  'vat.type.correction': 'Décompte rectificatif',
  'vat.prepare': 'Établir le décompte',
  'vat.status': 'Statut',
  'vat.status.draft': 'Brouillon',
  'vat.status.settled': 'Comptabilisé',
  'vat.method.effective': 'Méthode de décompte effective',
  'vat.method.net_tax': 'Méthode des taux de la dette fiscale nette',
  'vat.figure': 'Chiffre',
  'vat.amount': 'Montant',
  'vat.tax': 'Impôt',
  'vat.base': 'Contre-prestation',
  'vat.document': 'Pièce',
  'vat.date': 'Date',
  'vat.payable': 'À payer',
  'vat.settle': 'Comptabiliser le décompte',
  'vat.settledBy': "Comptabilisé par l'écriture {id}",
  'vat.lines': 'Écritures du chiffre {figure}',
  'vat.none': 'Aucun décompte TVA pour le moment.',
  'vat.back': 'Tous les décomptes TVA',
  'vat.figure.200': 'Total des contre-prestations convenues ou reçues',
  'vat.figure.220': 'Prestations exonérées (notamment exportations)',
  'vat.figure.221': "Prestations fournies à l'étranger",
  'vat.figure.230': "Prestations exclues du champ de l'impôt",
  'vat.figure.280': 'Divers',
  'vat.figure.289': 'Total des déductions',
  'vat.figure.299': "Chiffre d'affaires imposable",
  'vat.figure.302': 'Prestations au taux normal',
  'vat.figure.312': 'Prestations au taux réduit',
  'vat.figure.342': "Prestations au taux spécial pour l'hébergement",
  'vat.figure.382': 'Impôt sur les acquisitions',
  'vat.figure.322': 'Prestations au 1er taux de la dette fiscale nette',
  'vat.figure.332': 'Prestations au 2e taux de la dette fiscale nette',
  'vat.figure.399': "Total de l'impôt dû",
  'vat.figure.400': 'Impôt préalable grevant les coûts en matériel et en prestations de services',
  'vat.figure.405': "Impôt préalable grevant les investissements et autres charges d'exploitation",
  'vat.figure.479': "Total de l'impôt préalable",
  'vat.figure.500': 'Montant à payer',
  'vat.figure.510': "Solde en faveur de l'assujetti",

  // bank
  'bank.statement': 'Relevé de compte',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilan',
};
