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

/** The company's name and e-mail; without a company e-mail the ledger's own address. */
export function senderOf(company: { name: string; email: string | null }, fallbackAddress: string): string {
  const name = company.name.replace(/["\\\r\n]/g, '');
  return `"${name}" <${company.email ?? fallbackAddress}>`;
}
