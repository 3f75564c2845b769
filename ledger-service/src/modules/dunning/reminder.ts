import { displayAmount, formatDate, type Language, Money, toJsonNumber, translatorFor } from '@ledger/shared';
import { fileNameFrom } from '@ledger/shared/fileNames';
import type { Tx } from '../../db/knex.ts';
import type { CompanyProfile } from '../company/index.ts';
import { documentPdf } from '../invoices/index.ts';
import { letter } from '../mail/index.ts';
import type { AttachmentRenderer } from '../outbox/index.ts';
import { reminderFacts, type ReminderFacts } from './store.ts';

/**
 * A dunning run's reminder (docs/invoices.md "Dunning runs"): its e-mail, written in the run, and its
 * PDF, rendered by the mail sender when the e-mail is sent (modules/outbox/render.ts) from what the run
 * recorded on the item — level, fee, open amount, new due date, language and the level's text — so a
 * payment or a change of the settings after the run does not change a reminder already queued.
 */

/** The attachment kind the mail sender renders with `renderReminder` (registered in modules/index.ts). */
export const REMINDER_PDF = 'dunning_reminder';

type Level = 1 | 2 | 3;

/** The PDF's file name: `reminder-<level>-<invoice number>.pdf`. */
export function reminderFileName(level: number, invNumber: string): string {
  return `reminder-${level}-${fileNameFrom(invNumber, 'pdf', 'reminder')}`;
}

/** The reminder's subject and text in its language: the level's title, the total (open + fee) and the new due date. */
export function reminderMail(
  company: Pick<CompanyProfile, 'name'>,
  r: { language: Language; level: number; open: string; fee: string; currency: string; due_date: string },
) {
  const t = translatorFor(r.language);
  const total = new Money(r.open).plus(r.fee);
  return {
    subject: t('document.email.dunningSubject', {
      title: t(`document.reminder.${r.level as Level}`),
      company: company.name,
    }),
    text: letter(r.language, company.name, [
      t('document.email.dunningBody', {
        amount: displayAmount(total.toFixed(2), r.currency),
        date: formatDate(r.due_date),
      }),
    ]),
  };
}

/**
 * The reminder as a document with an invoice's read shape, dated on the run's day: the invoice's open
 * amount and the fee as its lines, the total due on the new due date, the level's text, and the QR
 * payment part over the total with the invoice's own reference.
 */
async function reminderPdf(tx: Tx, companyId: number, f: ReminderFacts): Promise<Buffer> {
  if (f.due_date === null || f.language === null || f.level_text === null)
    throw new Error(`dunning item ${f.item_id} has no recorded reminder (a run before migration 046 rendered it)`);
  const t = translatorFor(f.language);
  const open = new Money(f.open);
  const fee = new Money(f.fee);
  const total = open.plus(fee);
  const lines = [
    {
      description: `${t('document.qrMessage', { number: f.inv_number })}, ${formatDate(f.inv_date)}`,
      quantity: 1,
      price: toJsonNumber(open),
      amount: toJsonNumber(open),
    },
    ...(fee.gt(0)
      ? [{ description: t('document.reminderFee'), quantity: 1, price: toJsonNumber(fee), amount: toJsonNumber(fee) }]
      : []),
  ];
  const { pdf } = await documentPdf(
    { tx, company: { id: companyId }, vc: 'customer' },
    {
      id: f.invoice_id,
      customer_id: f.party_id,
      invNumber: f.inv_number,
      invDate: f.run_date,
      dueDate: f.due_date,
      currency: f.currency,
      description: t(`document.reminderIntro.${f.level as Level}`),
      items: lines,
      taxes: [],
      netAmount: total.toNumber(),
      taxAmount: 0,
      grossAmount: total.toNumber(),
      open: total.toNumber(),
      notes: f.level_text,
      qr_reference: f.qr_reference,
    },
    { asked: f.language, kind: 'reminder', reminderLevel: f.level as Level, number: f.inv_number },
  );
  return pdf;
}

/** The mail sender's renderer of `REMINDER_PDF` attachments: `ref` is `{ item_id }`. */
export const renderReminder: AttachmentRenderer = async (tx, companyId, ref) => {
  const itemId = Number(ref.item_id);
  const facts = await reminderFacts(tx, companyId, itemId);
  if (!facts) throw new Error(`dunning item ${itemId} not found`);
  return reminderPdf(tx, companyId, facts);
};
