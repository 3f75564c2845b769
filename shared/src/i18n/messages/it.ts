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
  'document.vendorInvoice': 'Fattura fornitore',
  'document.creditNote': 'Nota di credito',
  'document.quote': 'Offerta',
  'document.reminder.1': 'Promemoria di pagamento',
  'document.reminder.2': '1° sollecito',
  'document.reminder.3': '2° sollecito',
  'document.draft': 'Bozza – non pagare',
  'document.date': 'Data',
  'document.invoiceDate': 'Data fattura',
  'document.dueDate': 'Scadenza',
  'document.orderNumber': 'N. ordine',
  'document.yourOrder': 'Vostro ordine',
  'document.reference': 'Riferimento',
  'document.validUntil': 'Valida fino al',
  'document.creditOf': 'Nota di credito relativa alla fattura {number}',
  'document.reason': 'Motivo',
  'document.column.description': 'Descrizione',
  'document.column.quantity': 'Quantità',
  'document.column.unit': 'Unità',
  'document.column.price': 'Prezzo',
  'document.column.discount': 'Sconto',
  'document.column.amount': 'Importo',
  'document.net': 'Totale netto',
  'document.vat': 'IVA{rate} su {base}',
  'document.total': 'Totale {currency}',
  'document.open': 'Saldo aperto {currency}',
  'document.payableImmediately': 'Pagabile immediatamente.',
  'document.payableWithin': 'Pagabile entro {days} giorni (scadenza il {date}).',
  'document.payableBy': 'Pagabile entro il {date}.',
  'document.creditNoteUse': 'Compenseremo questo credito con le vostre fatture aperte o ve lo rimborseremo.',
  'document.quoteValidity': 'Questa offerta è valida fino al {date}.',
  'document.reminderIntro.1':
    'Probabilmente è sfuggito alla vostra attenzione: le seguenti fatture sono ancora aperte.',
  'document.reminderIntro.2': 'Nonostante il nostro promemoria, le seguenti fatture sono ancora aperte.',
  'document.reminderIntro.3': 'Nonostante due solleciti, le seguenti fatture sono ancora aperte.',
  'document.reminderFee': 'Spese di sollecito',
  'document.reminderDue': 'Vi preghiamo di pagare {amount} entro il {date}.',
  'document.reminderTotal': 'Totale dovuto {currency}',
  'document.qrMessage': 'Fattura {number}',
  'document.qrReminderMessage': 'Sollecito {number}',
  'document.period.quarter': '{quarter}° trimestre {year}',
  'document.email.greeting': 'Gentili signore e signori,',
  'document.email.closing': 'Cordiali saluti',
  'document.email.invoiceSubject': 'Fattura {number} di {company}',
  'document.email.invoiceBody': 'In allegato trovate la nostra fattura {number} del {date} di {amount}.',
  'document.email.dueOn': 'È pagabile entro il {date}.',
  'document.email.creditNoteSubject': 'Nota di credito {number} di {company}',
  'document.email.creditNoteBody': 'In allegato trovate la nostra nota di credito {number} del {date} di {amount}.',
  'document.email.quoteSubject': 'Offerta {number} di {company}',
  'document.email.quoteBody':
    'In allegato trovate la nostra offerta {number} di {amount}, valida fino al {date}. Restiamo in ' +
    'attesa del vostro ordine.',
  'document.email.reminderSubject': '{title}: fattura {number} di {company}',
  'document.email.reminderBody.1':
    'Probabilmente è sfuggito alla vostra attenzione: la nostra fattura {number} del {date} di {amount} ' +
    "era in scadenza il {due} e {open} sono ancora aperti. Vi preghiamo di pagare l'importo aperto entro " +
    '10 giorni. Se nel frattempo avete già pagato, vogliate considerare nullo il presente promemoria.',
  'document.email.reminderBody.2':
    'Nonostante il nostro promemoria, la nostra fattura {number} del {date} di {amount}, scaduta il ' +
    "{due}, non è ancora saldata; sono aperti {open}. Vi preghiamo di pagare l'importo aperto entro 10 " +
    'giorni.',
  'document.email.reminderBody.3':
    'Questo è il nostro ultimo sollecito: la nostra fattura {number} del {date} di {amount} era in ' +
    "scadenza il {due} e nonostante due solleciti sono aperti {open}. Se l'importo aperto non ci perviene " +
    "entro 10 giorni, avvieremo l'esecuzione senza ulteriore avviso.",
  'document.email.reminderFee':
    'Spese di sollecito di {amount} sono addebitate con il documento {number}; vi preghiamo di pagarle ' +
    "insieme all'importo aperto.",
  'document.email.reminderLevel': 'Livello di sollecito {level}; la fattura è allegata ancora una volta.',
  'document.email.dunningSubject': '{title} di {company}',
  'document.email.dunningBody': 'In allegato trovate il nostro sollecito di {amount}, pagabile entro il {date}.',
  'sales.quotes': 'Offerte',
  'sales.recurring': 'Fatture ricorrenti',
  'sales.dunning': 'Solleciti',
  'sales.number': 'Numero',
  'sales.customer': 'Cliente',
  'sales.status': 'Stato',
  'sales.amount': 'Importo',
  'sales.status.draft': 'Bozza',
  'sales.status.sent': 'Inviata',
  'sales.status.accepted': 'Accettata',
  'sales.status.declined': 'Rifiutata',
  'sales.status.expired': 'Scaduta',
  'sales.status.invoiced': 'Fatturata',
  'sales.status.active': 'Attiva',
  'sales.status.paused': 'In pausa',
  'sales.none': 'Ancora nessuna voce.',
  'sales.convert': 'Crea fattura',
  'sales.schedule': 'Periodicità',
  'sales.nextDate': 'Prossima fattura',
  'sales.mode': 'Modalità',
  'sales.pause': 'Sospendi',
  'sales.resume': 'Riprendi',
  'sales.every': 'ogni {n} {unit}',
  'sales.dunningDate': 'Data del sollecito',
  'sales.dunningPropose': 'Mostra proposta',
  'sales.dunningSend': 'Invia solleciti',
  'sales.dunningSent': '{count} solleciti inviati.',
  'sales.level': 'Livello',
  'sales.fee': 'Spese',
  'sales.open': 'Aperto',
  'sales.invoice': 'Fattura',
  'sales.runs': 'Solleciti precedenti',
  'sales.language': 'Lingua',

  // vat
  'vat.return': 'Rendiconto IVA',

  // bank
  'bank.statement': 'Estratto conto',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilancio',
};
