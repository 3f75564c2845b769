import { displayAmount, formatDate, Money, toJsonNumber, translatorFor } from '@ledger/shared';
import type { ListPage } from '../../db/listOrder.ts';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { createTransaction } from '../arap/index.ts';
import { getCompanyProfile, type CompanyProfile } from '../company/index.ts';
import { getParty } from '../parties/index.ts';
import { documentLanguage, documentPdf, type InvoiceContext } from '../invoices/index.ts';
import { letter, senderOf, type MailSettings } from '../mail/index.ts';
import { queueMessage } from '../outbox/index.ts';
import { daysOverdue, nextLevel, reminderDueDate } from './rules.ts';
import {
  claimItem,
  deleteRun,
  insertRun,
  listRuns,
  overdueInvoices,
  recordItemResult,
  runWithItems,
  type OverdueInvoice,
  type RunItemRow,
} from './store.ts';

/**
 * Dunning runs (docs/invoices.md "Dunning runs"): every overdue, unpaid customer invoice that
 * reaches its next level of the company's dunning settings on the run's day. A dry run lists
 * them; a run sends each its reminder (its own PDF: the open amount, the fee, a new due date
 * and a QR payment part for both, in the customer's language), books the fee and records the
 * level — once per invoice and level, whatever runs at the same time.
 */

export interface DunningItem {
  invoice_id: number;
  invNumber: string;
  customer_id: number;
  name: string;
  level: number;
  fee: number;
  open: number;
  currency: string;
  days_overdue: number;
  fee_transaction_id?: number | null;
  message_id?: number | null;
}

function proposal(rows: readonly OverdueInvoice[], company: CompanyProfile, date: string) {
  const levels = company.dunning.levels;
  const items: { row: OverdueInvoice; item: DunningItem }[] = [];
  for (const row of rows) {
    const days = daysOverdue(row.due_date, date);
    const level = nextLevel(days, row.level, levels);
    if (level === null) continue;
    items.push({
      row,
      item: {
        invoice_id: row.id,
        invNumber: row.inv_number,
        customer_id: row.party_id,
        name: row.party_name,
        level,
        fee: levels[level - 1]!.fee,
        open: toJsonNumber(row.open),
        currency: row.currency,
        days_overdue: days,
      },
    });
  }
  return items;
}

/** Books the level's fee as a posted customer transaction on the reminder-fee account (the AR/AP workflow). */
async function bookFee(
  c: InvoiceContext,
  row: OverdueInvoice,
  item: DunningItem,
  company: CompanyProfile,
  date: string,
) {
  if (company.reminder_fee_account === null) {
    throw ruleInvalid('Dunning fees need a reminder-fee account: set reminder_fee_account with POST /system/company.');
  }
  const description = `Reminder fee, level ${item.level}, invoice ${row.inv_number}`;
  const base = c.company.base_currency.trim();
  return createTransaction(c, {
    input: {
      type: 'transaction',
      customer_id: row.party_id,
      invDate: date,
      curr: row.currency,
      ...(row.currency === base ? {} : { exchangerate: Number(row.exchangerate) }),
      description,
      pending: '0',
      lines: [{ account: company.reminder_fee_account, amount: item.fee, description }],
    },
    files: [],
  });
}

/** The reminder as a document with an invoice's read shape: the invoice's open amount and the fee, due in 10 days. */
async function reminderPdf(
  c: InvoiceContext,
  row: OverdueInvoice,
  item: DunningItem,
  company: CompanyProfile,
  date: string,
) {
  const party = await getParty(c.tx, c.company.id, 'customer', row.party_id);
  const language = documentLanguage(undefined, party, company);
  const t = translatorFor(language);
  const total = new Money(row.open).plus(item.fee);
  const due = reminderDueDate(date);
  const lines = [
    {
      description: `${t('document.qrMessage', { number: row.inv_number })}, ${formatDate(row.inv_date)}`,
      quantity: 1,
      price: toJsonNumber(row.open),
      amount: toJsonNumber(row.open),
    },
    ...(item.fee > 0
      ? [{ description: t('document.reminderFee'), quantity: 1, price: item.fee, amount: item.fee }]
      : []),
  ];
  const text = company.dunning.levels[item.level - 1]!.text[language];
  const { pdf, fileName } = await documentPdf(
    c,
    {
      id: row.id,
      customer_id: row.party_id,
      invNumber: row.inv_number,
      invDate: date,
      dueDate: due,
      currency: row.currency,
      description: t(`document.reminderIntro.${item.level as 1 | 2 | 3}`),
      items: lines,
      taxes: [],
      netAmount: total.toNumber(),
      taxAmount: 0,
      grossAmount: total.toNumber(),
      open: total.toNumber(),
      notes: text,
      qr_reference: row.qr_reference,
    },
    { asked: language, kind: 'reminder', reminderLevel: item.level as 1 | 2 | 3, number: row.inv_number },
  );
  return { pdf, fileName: `reminder-${item.level}-${fileName}`, language, party, total, due };
}

/** `POST /arap/dunning/run`: the proposal (dry run), or the run that sends it. */
export async function runDunning(
  c: InvoiceContext,
  mail: MailSettings,
  request: { date: string; dry_run?: boolean },
): Promise<{ id?: number; date: string; items: DunningItem[] }> {
  const company = await getCompanyProfile(c.tx, c.company.id);
  if (company.dunning.levels.length === 0)
    throw conflict('The company has no dunning levels: set dunning.levels with POST /system/company.');
  const items = proposal(await overdueInvoices(c.tx, c.company.id, request.date), company, request.date);
  if (request.dry_run || items.length === 0) return { date: request.date, items: items.map((i) => i.item) };

  const runId = await insertRun(c.tx, c.company.id, request.date);
  const sent: DunningItem[] = [];
  for (const { row, item } of items) {
    const itemId = await claimItem(c.tx, {
      company_id: c.company.id,
      run_id: runId,
      invoice_id: row.id,
      level: item.level,
      fee: String(item.fee),
      open: row.open,
    });
    if (itemId === undefined) continue; // another run sent this level meanwhile
    const fee = item.fee > 0 ? await bookFee(c, row, item, company, request.date) : null;
    const doc = await reminderPdf(c, row, item, company, request.date);
    const t = translatorFor(doc.language);
    const email = typeof doc.party?.email === 'string' ? doc.party.email : null;
    const message = email
      ? await queueMessage(c, mail.queue, {
          kind: 'reminder',
          transactionId: row.id,
          from: senderOf(company, mail.fallbackSender),
          to: [email],
          cc: [],
          subject: t('document.email.dunningSubject', {
            title: t(`document.reminder.${item.level as 1 | 2 | 3}`),
            company: company.name,
          }),
          text: letter(doc.language, company.name, [
            t('document.email.dunningBody', {
              amount: displayAmount(doc.total.toFixed(2), row.currency),
              date: formatDate(doc.due),
            }),
          ]),
          attachments: [{ filename: doc.fileName, mediaType: 'application/pdf', data: doc.pdf }],
        })
      : null;
    await recordItemResult(c.tx, c.company.id, itemId, {
      fee_transaction_id: fee?.id ?? null,
      message_id: message?.id ?? null,
    });
    sent.push({ ...item, fee_transaction_id: fee?.id ?? null, message_id: message?.id ?? null });
  }
  if (sent.length === 0) {
    await deleteRun(c.tx, c.company.id, runId);
    return { date: request.date, items: [] };
  }
  await recordAudit(c.tx, c.company.id, c.actor, 'dunning_run', runId, 'send', {
    date: request.date,
    invoices: sent.map((i) => ({ id: i.invoice_id, level: i.level })),
  });
  return { id: runId, date: request.date, items: sent };
}

const itemOf = (r: RunItemRow): DunningItem => ({
  invoice_id: Number(r.invoice_id),
  invNumber: r.inv_number,
  customer_id: Number(r.party_id),
  name: r.party_name,
  level: Number(r.level),
  fee: toJsonNumber(r.fee),
  open: toJsonNumber(r.open),
  currency: r.currency,
  days_overdue: Number(r.days_overdue),
  fee_transaction_id: r.fee_transaction_id === null ? null : Number(r.fee_transaction_id),
  message_id: r.message_id === null ? null : Number(r.message_id),
});

export async function dunningRun(c: InvoiceContext, id: number) {
  const run = await runWithItems(c.tx, c.company.id, id);
  if (!run) throw notFound(`No dunning run with id ${id}.`);
  return { id, date: run.date, items: run.items.map(itemOf) };
}

export async function dunningRuns(
  c: InvoiceContext,
  page: { limit: number; offset: number },
): Promise<ListPage<{ id: number; date: string; count: number }>> {
  return listRuns(c.tx, c.company.id, page);
}
