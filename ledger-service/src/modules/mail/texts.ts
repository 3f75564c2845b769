import { displayAmount, formatDate, translatorFor, type Language } from '@ledger/shared';

/**
 * The default subject and text of invoice, credit-note and reminder e-mails in the customer's
 * language (shared/src/i18n `document.email.*`), and the sender address. Pure.
 */

export interface InvoiceFacts {
  company: string;
  invNumber: string;
  invDate: string;
  dueDate: string | null;
  amount: number;
  currency: string;
  language: Language;
  /** what the document is: its subject and cover note differ */
  kind?: 'invoice' | 'credit_note';
}

const money = (amount: number | string, currency: string) => displayAmount(amount, currency);

export function defaultSubject(f: InvoiceFacts): string {
  const t = translatorFor(f.language);
  const key = f.kind === 'credit_note' ? 'document.email.creditNoteSubject' : 'document.email.invoiceSubject';
  return t(key, { number: f.invNumber, company: f.company });
}

/** Greeting, the body lines, closing and the company: every default e-mail's frame. */
export function letter(language: Language, company: string, body: string[]): string {
  const t = translatorFor(language);
  return [t('document.email.greeting'), '', ...body, '', t('document.email.closing'), company].join('\n');
}

export function coverNote(f: InvoiceFacts): string {
  const t = translatorFor(f.language);
  const values = { number: f.invNumber, date: formatDate(f.invDate), amount: money(Math.abs(f.amount), f.currency) };
  if (f.kind === 'credit_note') return letter(f.language, f.company, [t('document.email.creditNoteBody', values)]);
  const due = f.dueDate ? ` ${t('document.email.dueOn', { date: formatDate(f.dueDate) })}` : '';
  return letter(f.language, f.company, [`${t('document.email.invoiceBody', values)}${due}`]);
}

export type ReminderLevel = 1 | 2 | 3;

/** The fee a reminder names (booked as its own document), in the invoice currency. */
export interface ReminderFee {
  amount: number;
  invNumber: string;
}

/** Zahlungserinnerung, 1. Mahnung, 2. Mahnung (and the same in French, Italian and English). */
export function reminderTitle(language: Language, level: ReminderLevel): string {
  return translatorFor(language)(`document.reminder.${level}`);
}

export function reminderSubject(f: InvoiceFacts, level: ReminderLevel): string {
  return translatorFor(f.language)('document.email.reminderSubject', {
    title: reminderTitle(f.language, level),
    number: f.invNumber,
    company: f.company,
  });
}

/** The line naming the reminder fee; in every reminder that charges one, whatever its text. */
export function feeNote(fee: ReminderFee, currency: string, language: Language): string {
  return translatorFor(language)('document.email.reminderFee', {
    amount: money(fee.amount, currency),
    number: fee.invNumber,
  });
}

/** The text of a reminder: `message`, or the default text of the level (firmer with each); the fee always named. */
export function reminderText(
  f: InvoiceFacts,
  level: ReminderLevel,
  open: number,
  fee: ReminderFee | null,
  message?: string,
): string {
  const t = translatorFor(f.language);
  const fees = fee ? ['', feeNote(fee, f.currency, f.language)] : [];
  if (message !== undefined) return [message, ...fees].join('\n');
  const body = t(`document.email.reminderBody.${level}`, {
    number: f.invNumber,
    date: formatDate(f.invDate),
    amount: money(f.amount, f.currency),
    due: f.dueDate ? formatDate(f.dueDate) : '–',
    open: money(open, f.currency),
  });
  return letter(f.language, f.company, [body, ...fees, '', t('document.email.reminderLevel', { level })]);
}

/** The company's name and e-mail; without a company e-mail the ledger's own address. */
export function senderOf(company: { name: string; email: string | null }, fallbackAddress: string): string {
  const name = company.name.replace(/["\\\r\n]/g, '');
  return `"${name}" <${company.email ?? fallbackAddress}>`;
}
