import { formatAmount } from '@ledger/shared';

/** The default subject and text of invoice e-mails, and the sender address. Pure. */

export interface InvoiceFacts {
  company: string;
  invNumber: string;
  invDate: string;
  dueDate: string | null;
  amount: number;
  currency: string;
}

export function defaultSubject(f: InvoiceFacts): string {
  return `Invoice ${f.invNumber} from ${f.company}`;
}

export function coverNote(f: InvoiceFacts): string {
  const due = f.dueDate ? `, due on ${f.dueDate}` : '';
  return [
    'Dear customer,',
    '',
    `please find attached our invoice ${f.invNumber} of ${f.invDate} over ${formatAmount(f.amount, f.currency)}${due}.`,
    '',
    'Kind regards',
    f.company,
  ].join('\n');
}

export type ReminderLevel = 1 | 2 | 3;

/** The fee a reminder names (booked as its own document), in the invoice currency. */
export interface ReminderFee {
  amount: number;
  invNumber: string;
}

const REMINDER_SUBJECTS: Record<ReminderLevel, string> = {
  1: 'Payment reminder',
  2: 'Second payment reminder',
  3: 'Final payment reminder',
};

export function reminderSubject(f: InvoiceFacts, level: ReminderLevel): string {
  return `${REMINDER_SUBJECTS[level]}: invoice ${f.invNumber} from ${f.company}`;
}

/** The line naming the reminder fee; in every reminder that charges one, whatever its text. */
export function feeNote(fee: ReminderFee, currency: string): string {
  return (
    `A reminder fee of ${formatAmount(fee.amount, currency)} is charged with document ${fee.invNumber}; please ` +
    `pay it together with the open amount.`
  );
}

/** The text of a reminder: `message`, or the default text of the level (firmer with each); the fee always named. */
export function reminderText(
  f: InvoiceFacts,
  level: ReminderLevel,
  open: number,
  fee: ReminderFee | null,
  message?: string,
): string {
  const fees = fee ? ['', feeNote(fee, f.currency)] : [];
  if (message !== undefined) return [message, ...fees].join('\n');
  const invoice = `our invoice ${f.invNumber} of ${f.invDate} over ${formatAmount(f.amount, f.currency)}`;
  const due = f.dueDate ? ` was due on ${f.dueDate}` : ' is due';
  const stillOpen = `${formatAmount(open, f.currency)} are still open`;
  const body: Record<ReminderLevel, string[]> = {
    1: [
      `perhaps it has escaped your attention: ${invoice}${due}, and ${stillOpen}.`,
      'We kindly ask you to pay the open amount within the next 10 days. If you have paid in the meantime, please ' +
        'disregard this reminder.',
    ],
    2: [
      `despite our first reminder, ${invoice}${due}, and ${stillOpen}.`,
      'Please pay the open amount within 10 days.',
    ],
    3: [
      `this is our final reminder: ${invoice}${due}, and ${stillOpen} despite two reminders.`,
      'Unless the open amount reaches us within 10 days, we will hand the claim over to debt collection without ' +
        'further notice.',
    ],
  };
  return [
    'Dear customer,',
    '',
    ...body[level],
    ...fees,
    '',
    `Reminder level ${level}; the invoice is attached once more.`,
    '',
    'Kind regards',
    f.company,
  ].join('\n');
}

/** The company's name and e-mail; without a company e-mail the ledger's own address. */
export function senderOf(company: { name: string; email: string | null }, fallbackAddress: string): string {
  const name = company.name.replace(/["\\\r\n]/g, '');
  return `"${name}" <${company.email ?? fallbackAddress}>`;
}
