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
  'document.vendorInvoice': 'Facture fournisseur',
  'document.creditNote': 'Note de crédit',
  'document.quote': 'Offre',
  'document.reminder.1': 'Rappel de paiement',
  'document.reminder.2': '1re sommation',
  'document.reminder.3': '2e sommation',
  'document.draft': 'Projet – ne pas payer',
  'document.date': 'Date',
  'document.invoiceDate': 'Date de facture',
  'document.dueDate': 'Échéance',
  'document.orderNumber': 'N° de commande',
  'document.yourOrder': 'Votre commande',
  'document.reference': 'Référence',
  'document.validUntil': "Valable jusqu'au",
  'document.creditOf': 'Note de crédit relative à la facture {number}',
  'document.reason': 'Motif',
  'document.column.description': 'Désignation',
  'document.column.quantity': 'Quantité',
  'document.column.unit': 'Unité',
  'document.column.price': 'Prix',
  'document.column.discount': 'Rabais',
  'document.column.amount': 'Montant',
  'document.net': 'Total net',
  'document.vat': 'TVA{rate} sur {base}',
  'document.total': 'Total {currency}',
  'document.open': 'Solde dû {currency}',
  'document.payableImmediately': 'Payable immédiatement.',
  'document.payableWithin': 'Payable dans les {days} jours (échéance le {date}).',
  'document.payableBy': "Payable jusqu'au {date}.",
  'document.creditNoteUse': 'Nous imputerons ce crédit sur vos factures ouvertes ou vous le rembourserons.',
  'document.quoteValidity': "Cette offre est valable jusqu'au {date}.",
  'document.reminderIntro.1': 'Sauf erreur de notre part, les factures suivantes sont encore ouvertes.',
  'document.reminderIntro.2': 'Malgré notre rappel, les factures suivantes sont toujours ouvertes.',
  'document.reminderIntro.3': 'Malgré deux rappels, les factures suivantes sont toujours ouvertes.',
  'document.reminderFee': 'Frais de rappel',
  'document.reminderDue': "Veuillez payer {amount} d'ici au {date}.",
  'document.reminderTotal': 'Total dû {currency}',
  'document.qrMessage': 'Facture {number}',
  'document.qrReminderMessage': 'Rappel {number}',
  'document.period.quarter': '{quarter}e trimestre {year}',
  'document.email.greeting': 'Madame, Monsieur,',
  'document.email.closing': 'Meilleures salutations',
  'document.email.invoiceSubject': 'Facture {number} de {company}',
  'document.email.invoiceBody': "Veuillez trouver ci-joint notre facture {number} du {date} d'un montant de {amount}.",
  'document.email.dueOn': 'Elle est payable au {date}.',
  'document.email.creditNoteSubject': 'Note de crédit {number} de {company}',
  'document.email.creditNoteBody':
    "Veuillez trouver ci-joint notre note de crédit {number} du {date} d'un montant de {amount}.",
  'document.email.quoteSubject': 'Offre {number} de {company}',
  'document.email.quoteBody':
    "Veuillez trouver ci-joint notre offre {number} d'un montant de {amount}, valable jusqu'au {date}. " +
    'Nous nous réjouissons de votre commande.',
  'document.email.reminderSubject': '{title} : facture {number} de {company}',
  'document.email.reminderBody.1':
    "Sauf erreur de notre part, notre facture {number} du {date} d'un montant de {amount} était échue le " +
    '{due}, et {open} restent ouverts. Nous vous prions de régler le solde dans les 10 jours. Si vous ' +
    'avez payé entre-temps, veuillez ne pas tenir compte de ce rappel.',
  'document.email.reminderBody.2':
    "Malgré notre premier rappel, notre facture {number} du {date} d'un montant de {amount}, échue le " +
    "{due}, n'est pas réglée ; {open} restent ouverts. Veuillez payer le solde dans les 10 jours.",
  'document.email.reminderBody.3':
    "Ceci est notre dernier rappel : notre facture {number} du {date} d'un montant de {amount} était " +
    'échue le {due}, et {open} restent ouverts malgré deux rappels. Sans paiement dans les 10 jours, nous ' +
    'engagerons une poursuite sans autre avis.',
  'document.email.reminderFee':
    'Des frais de rappel de {amount} sont facturés avec la pièce {number} ; veuillez les payer avec le solde.',
  'document.email.reminderLevel': 'Niveau de rappel {level} ; la facture est jointe une nouvelle fois.',
  'document.email.dunningSubject': '{title} de {company}',
  'document.email.dunningBody':
    "Veuillez trouver ci-joint notre rappel d'un montant de {amount}, payable jusqu'au {date}.",
  'sales.quotes': 'Offres',
  'sales.recurring': 'Factures récurrentes',
  'sales.dunning': 'Rappels',
  'sales.number': 'Numéro',
  'sales.customer': 'Client',
  'sales.status': 'Statut',
  'sales.amount': 'Montant',
  'sales.status.draft': 'Brouillon',
  'sales.status.sent': 'Envoyée',
  'sales.status.accepted': 'Acceptée',
  'sales.status.declined': 'Refusée',
  'sales.status.expired': 'Expirée',
  'sales.status.invoiced': 'Facturée',
  'sales.status.active': 'Active',
  'sales.status.paused': 'En pause',
  'sales.none': 'Aucune entrée pour le moment.',
  'sales.convert': 'Créer la facture',
  'sales.schedule': 'Périodicité',
  'sales.nextDate': 'Prochaine facture',
  'sales.mode': 'Mode',
  'sales.pause': 'Mettre en pause',
  'sales.resume': 'Reprendre',
  'sales.every': 'tous les {n} {unit}',
  'sales.dunningDate': 'Date du rappel',
  'sales.dunningPropose': 'Afficher la proposition',
  'sales.dunningSend': 'Envoyer les rappels',
  'sales.dunningSent': '{count} rappels envoyés.',
  'sales.level': 'Niveau',
  'sales.fee': 'Frais',
  'sales.open': 'Ouvert',
  'sales.invoice': 'Facture',
  'sales.runs': 'Relances précédentes',
  'sales.language': 'Langue',

  // vat
  'vat.return': 'Décompte TVA',

  // bank
  'bank.statement': 'Relevé de compte',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilan',
};
