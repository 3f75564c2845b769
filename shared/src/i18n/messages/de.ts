/**
 * German texts of the product: the app, documents (PDFs, e-mails, the QR-bill's payment part),
 * VAT, bank and year-end reports. Keys are grouped by the part that owns them; a key that
 * the app and a document share is written once, in the section of the document.
 * `i18n/messages.test` fails when any language lacks a key of another.
 */
import type { Messages } from './en.ts';

export const de: Messages = {
  // common
  'common.language': 'Deutsch',
  'common.yes': 'Ja',
  'common.no': 'Nein',

  // app (the gateway's pages)
  'app.title': 'Buchhaltung',

  // documents (invoices, credit notes, quotes, reminders, e-mails)
  'document.invoice': 'Rechnung',
  'document.paymentPart': 'Zahlteil',
  'document.vendorInvoice': 'Lieferantenrechnung',
  'document.creditNote': 'Gutschrift',
  'document.quote': 'Offerte',
  'document.reminder.1': 'Zahlungserinnerung',
  'document.reminder.2': '1. Mahnung',
  'document.reminder.3': '2. Mahnung',
  'document.draft': 'Entwurf – nicht zur Zahlung',
  'document.date': 'Datum',
  'document.invoiceDate': 'Rechnungsdatum',
  'document.dueDate': 'Fällig am',
  'document.orderNumber': 'Auftragsnummer',
  'document.yourOrder': 'Ihre Bestellung',
  'document.reference': 'Referenz',
  'document.validUntil': 'Gültig bis',
  'document.creditOf': 'Gutschrift zu Rechnung {number}',
  'document.reason': 'Grund',
  'document.column.description': 'Bezeichnung',
  'document.column.quantity': 'Menge',
  'document.column.unit': 'Einheit',
  'document.column.price': 'Preis',
  'document.column.discount': 'Rabatt',
  'document.column.amount': 'Betrag',
  'document.net': 'Total netto',
  'document.vat': 'MWST{rate} auf {base}',
  'document.total': 'Total {currency}',
  'document.open': 'Offen {currency}',
  'document.payableImmediately': 'Zahlbar sofort.',
  'document.payableWithin': 'Zahlbar innert {days} Tagen (fällig am {date}).',
  'document.payableBy': 'Zahlbar bis {date}.',
  'document.creditNoteUse':
    'Wir verrechnen diese Gutschrift mit Ihren offenen Rechnungen oder zahlen sie Ihnen zurück.',
  'document.quoteValidity': 'Diese Offerte ist gültig bis {date}.',
  'document.reminderIntro.1':
    'Vermutlich ist es Ihrer Aufmerksamkeit entgangen: Die folgenden Rechnungen sind noch offen.',
  'document.reminderIntro.2': 'Trotz unserer Zahlungserinnerung sind die folgenden Rechnungen noch offen.',
  'document.reminderIntro.3': 'Trotz zweier Mahnungen sind die folgenden Rechnungen noch offen.',
  'document.reminderFee': 'Mahngebühr',
  'document.reminderDue': 'Bitte bezahlen Sie {amount} bis {date}.',
  'document.reminderTotal': 'Total fällig {currency}',
  'document.qrMessage': 'Rechnung {number}',
  'document.qrReminderMessage': 'Mahnung {number}',
  'document.period.quarter': '{quarter}. Quartal {year}',
  'document.email.greeting': 'Sehr geehrte Damen und Herren',
  'document.email.closing': 'Freundliche Grüsse',
  'document.email.invoiceSubject': 'Rechnung {number} von {company}',
  'document.email.invoiceBody': 'Beiliegend erhalten Sie unsere Rechnung {number} vom {date} über {amount}.',
  'document.email.dueOn': 'Sie ist zahlbar bis {date}.',
  'document.email.creditNoteSubject': 'Gutschrift {number} von {company}',
  'document.email.creditNoteBody': 'Beiliegend erhalten Sie unsere Gutschrift {number} vom {date} über {amount}.',
  'document.email.quoteSubject': 'Offerte {number} von {company}',
  'document.email.quoteBody':
    'Beiliegend erhalten Sie unsere Offerte {number} über {amount}, gültig bis {date}. Wir freuen uns auf ' +
    'Ihren Auftrag.',
  'document.email.reminderSubject': '{title}: Rechnung {number} von {company}',
  'document.email.reminderBody.1':
    'Vermutlich ist es Ihrer Aufmerksamkeit entgangen: Unsere Rechnung {number} vom {date} über {amount} ' +
    'war am {due} fällig, und {open} sind noch offen. Wir bitten Sie, den offenen Betrag innert 10 Tagen ' +
    'zu bezahlen. Sollten Sie inzwischen bezahlt haben, betrachten Sie dieses Schreiben als ' +
    'gegenstandslos.',
  'document.email.reminderBody.2':
    'Trotz unserer Zahlungserinnerung ist unsere Rechnung {number} vom {date} über {amount}, fällig am ' +
    '{due}, noch nicht beglichen; offen sind {open}. Bitte bezahlen Sie den offenen Betrag innert 10 ' +
    'Tagen.',
  'document.email.reminderBody.3':
    'Dies ist unsere letzte Mahnung: Unsere Rechnung {number} vom {date} über {amount} war am {due} ' +
    'fällig, und trotz zweier Mahnungen sind {open} offen. Geht der offene Betrag nicht innert 10 Tagen ' +
    'ein, leiten wir ohne weitere Mitteilung die Betreibung ein.',
  'document.email.reminderFee':
    'Eine Mahngebühr von {amount} wird mit Beleg {number} belastet; bitte bezahlen Sie sie zusammen mit ' +
    'dem offenen Betrag.',
  'document.email.reminderLevel': 'Mahnstufe {level}; die Rechnung liegt nochmals bei.',
  'document.email.dunningSubject': '{title} von {company}',
  'document.email.dunningBody': 'Beiliegend erhalten Sie unsere Mahnung über {amount}, zahlbar bis {date}.',
  'sales.quotes': 'Offerten',
  'sales.recurring': 'Wiederkehrende Rechnungen',
  'sales.dunning': 'Mahnwesen',
  'sales.number': 'Nummer',
  'sales.customer': 'Kunde',
  'sales.status': 'Status',
  'sales.amount': 'Betrag',
  'sales.status.draft': 'Entwurf',
  'sales.status.sent': 'Versandt',
  'sales.status.accepted': 'Angenommen',
  'sales.status.declined': 'Abgelehnt',
  'sales.status.expired': 'Abgelaufen',
  'sales.status.invoiced': 'Verrechnet',
  'sales.status.active': 'Aktiv',
  'sales.status.paused': 'Pausiert',
  'sales.none': 'Noch keine Einträge.',
  'sales.convert': 'Rechnung erstellen',
  'sales.schedule': 'Intervall',
  'sales.nextDate': 'Nächste Rechnung',
  'sales.mode': 'Modus',
  'sales.pause': 'Pausieren',
  'sales.resume': 'Fortsetzen',
  'sales.every': 'alle {n} {unit}',
  'sales.dunningDate': 'Mahndatum',
  'sales.dunningPropose': 'Vorschlag anzeigen',
  'sales.dunningSend': 'Mahnungen versenden',
  'sales.dunningSent': '{count} Mahnungen versandt.',
  'sales.level': 'Stufe',
  'sales.fee': 'Gebühr',
  'sales.open': 'Offen',
  'sales.invoice': 'Rechnung',
  'sales.runs': 'Frühere Mahnläufe',
  'sales.language': 'Sprache',

  // vat
  'vat.return': 'MWST-Abrechnung',

  // bank
  'bank.statement': 'Kontoauszug',

  // year end (charts, assets, statements)
  'yearEnd.balanceSheet': 'Bilanz',
};
