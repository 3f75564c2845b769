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

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilan',
  'yearEnd.assets.title': 'Immobilisations',
  'yearEnd.assets.hint':
    'Le registre des immobilisations. Un calcul des amortissements comptabilise toutes les ' +
    'immobilisations jusqu’à une date en une écriture ; le relancer à la même date ne comptabilise rien.',
  'yearEnd.assets.none': 'Aucune immobilisation n’est saisie.',
  'yearEnd.assets.name': 'Désignation',
  'yearEnd.assets.account': 'Compte d’immobilisation',
  'yearEnd.assets.acquired': 'Acquisition',
  'yearEnd.assets.cost': 'Valeur d’acquisition',
  'yearEnd.assets.method': 'Méthode',
  'yearEnd.assets.linear': 'linéaire',
  'yearEnd.assets.declining': 'dégressif',
  'yearEnd.assets.depreciated': 'Amorti',
  'yearEnd.assets.bookValue': 'Valeur comptable',
  'yearEnd.assets.disposed': 'sortie le {date}',
  'yearEnd.assets.run': 'Comptabiliser les amortissements',
  'yearEnd.assets.runTo': 'Jusqu’au',
  'yearEnd.assets.booked': 'Amortissements comptabilisés par l’écriture {id}.',
  'yearEnd.assets.nothingDue': 'Rien n’était dû : aucune écriture.',
  'yearEnd.assets.add': 'Saisir une immobilisation',
  'yearEnd.assets.expenseAccount': 'Compte d’amortissement',
  'yearEnd.assets.accumulatedAccount': 'Compte de correction de valeur (vide : directement sur l’immobilisation)',
  'yearEnd.assets.residual': 'Valeur résiduelle',
  'yearEnd.assets.lifeMonths': 'Durée d’utilisation en mois (linéaire)',
  'yearEnd.assets.rate': 'Taux annuel en % (dégressif)',
  'yearEnd.assets.frequency': 'Comptabilisé par',
  'yearEnd.assets.month': 'mois',
  'yearEnd.assets.quarter': 'trimestre',
  'yearEnd.assets.year': 'année',
  'yearEnd.assets.created': 'L’immobilisation est saisie.',
  'yearEnd.assets.schedule': 'Tableau des immobilisations',
  'yearEnd.revaluation.title': 'Réévaluation des devises',
  'yearEnd.revaluation.hint':
    'Les factures, factures fournisseurs et comptes bancaires ouverts en devises sont évalués aux cours ' +
    'de clôture ; les différences sont comptabilisées sur le compte des différences de change. Chaque ' +
    'date n’est réévaluée qu’une fois.',
  'yearEnd.revaluation.date': 'Date de clôture',
  'yearEnd.revaluation.rate': 'Cours de clôture {currency}',
  'yearEnd.revaluation.reverse': 'Extourner le lendemain',
  'yearEnd.revaluation.submit': 'Réévaluer',
  'yearEnd.revaluation.item': 'Poste',
  'yearEnd.revaluation.open': 'Ouvert',
  'yearEnd.revaluation.oldValue': 'Valeur comptable',
  'yearEnd.revaluation.newValue': 'Valeur au cours de clôture',
  'yearEnd.revaluation.difference': 'Différence',
  'yearEnd.revaluation.booked': 'Comptabilisé par l’écriture {id}.',
  'yearEnd.revaluation.nothing': 'Aucun poste n’a changé de valeur : aucune écriture.',
  'yearEnd.revaluation.customer': 'Facture {id}',
  'yearEnd.revaluation.vendor': 'Facture fournisseur {id}',
  'yearEnd.revaluation.bank': 'Compte bancaire {id}',
};
