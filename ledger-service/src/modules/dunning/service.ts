import { ERROR_STATUS, type ErrorCode, type Language, toJsonNumber, type TransactionInput } from '@ledger/shared';
import type { ListPage } from '../../db/listOrder.ts';
import { recordAudit } from '../../db/audit.ts';
import { BatchRefused, conflict, DomainError, notFound, ruleInvalid } from '../../domain/errors.ts';
import { createTransactions } from '../arap/index.ts';
import { getCompanyProfile, type CompanyProfile } from '../company/index.ts';
import { documentLanguage, type InvoiceContext } from '../invoices/index.ts';
import { senderOf, type MailSettings } from '../mail/index.ts';
import { queueMessages, type MessageRequest } from '../outbox/index.ts';
import { REMINDER_PDF, reminderFileName, reminderMail } from './reminder.ts';
import { daysOverdue, nextLevel, reminderDueDate } from './rules.ts';
import {
  claimItems,
  deleteRun,
  insertRun,
  itemKey,
  listRuns,
  overdueInvoices,
  recordItemResults,
  runWithItems,
  type NewItem,
  type OverdueInvoice,
  type RunItemRow,
} from './store.ts';

/**
 * Dunning runs (docs/invoices.md "Dunning runs"): every overdue, unpaid customer invoice that
 * reaches its next level of the company's dunning settings on the run's day. A dry run lists
 * them; a run sends each its reminder (its own PDF: the open amount, the fee, a new due date
 * and a QR payment part for both, in the customer's language), books the fee and records the
 * level — once per invoice and level, whatever runs at the same time.
 *
 * A run is set-based (issue 33: 10,000 reminders in one request): the levels claimed in one
 * statement, the e-mails queued in one step with their PDFs described, not rendered — the mail
 * sender renders each from the item when it sends it (reminder.ts) —, the fees booked as one batch
 * of the AR/AP workflow (`createTransactions`: its rules, numbering, audit and events) and the
 * results recorded in one statement. All in the request's transaction: all or nothing.
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

interface Proposed {
  row: OverdueInvoice;
  item: DunningItem;
  language: Language;
}

function proposal(rows: readonly OverdueInvoice[], company: CompanyProfile, date: string): Proposed[] {
  const levels = company.dunning.levels;
  const items: Proposed[] = [];
  for (const row of rows) {
    const days = daysOverdue(row.due_date, date);
    const level = nextLevel(days, row.level, levels);
    if (level === null) continue;
    items.push({
      row,
      language: documentLanguage(undefined, { language: row.language }, company),
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

/**
 * Books each level's fee as a posted customer transaction on the reminder-fee account, dated on the
 * run's day — all of them as one batch of the AR/AP workflow (arap's `createTransactions`: the rules of
 * a single transaction, numbers from the sequence, one statement per table, audit entries and events).
 * The ids in the order given. A fee the rules refuse (a closed period, an approval limit) refuses the run.
 */
async function bookFees(c: InvoiceContext, items: readonly Proposed[], company: CompanyProfile, date: string) {
  if (items.length === 0) return [];
  const account = company.reminder_fee_account;
  if (account === null) {
    throw ruleInvalid('Dunning fees need a reminder-fee account: set reminder_fee_account with POST /system/company.');
  }
  const base = c.company.base_currency.trim();
  const inputs = items.map(({ row, item }): TransactionInput => {
    const description = `Reminder fee, level ${item.level}, invoice ${row.inv_number}`;
    return {
      type: 'transaction',
      customer_id: row.party_id,
      invDate: date,
      curr: row.currency,
      ...(row.currency === base ? {} : { exchangerate: Number(row.exchangerate) }),
      description,
      pending: '0',
      lines: [{ account, amount: item.fee, description }],
    };
  });
  try {
    return await createTransactions(c, inputs);
  } catch (err) {
    if (!(err instanceof BatchRefused)) throw err;
    // the run's fee, not a batch the caller sent: the first refusal as the run's error
    const first = err.problems[0]!;
    const invoice = items[first.index]!.row.inv_number;
    throw new DomainError(
      Object.hasOwn(ERROR_STATUS, first.code) ? (first.code as ErrorCode) : 'invalid_request',
      `The reminder fee of invoice ${invoice} cannot be booked: ${first.message}`,
      first.field === '/invDate' ? '/date' : undefined,
    );
  }
}

/** The reminders' e-mails to the customers with an address, each with its PDF to be rendered when sent. */
async function queueReminders(
  c: InvoiceContext,
  mail: MailSettings,
  company: CompanyProfile,
  items: readonly (Proposed & { itemId: number; due: string })[],
) {
  const from = senderOf(company, mail.fallbackSender);
  const requests = items.map(({ row, item, language, itemId, due }): MessageRequest => {
    const { subject, text } = reminderMail(company, {
      language,
      level: item.level,
      open: row.open,
      fee: String(item.fee),
      currency: row.currency,
      due_date: due,
    });
    return {
      kind: 'reminder',
      transactionId: row.id,
      from,
      to: [row.email!],
      cc: [],
      subject,
      text,
      attachments: [
        {
          filename: reminderFileName(item.level, row.inv_number),
          mediaType: 'application/pdf',
          render: { kind: REMINDER_PDF, ref: { item_id: itemId } },
        },
      ],
    };
  });
  return queueMessages(c, mail.queue, requests);
}

/** `POST /arap/dunning/run`: the proposal (dry run), or the run that sends it. */
export async function runDunning(
  c: InvoiceContext,
  mail: MailSettings,
  request: { date: string; dry_run?: boolean },
): Promise<{ id?: number; date: string; items: DunningItem[] }> {
  const company = await getCompanyProfile(c.tx, c.company.id);
  const levels = company.dunning.levels;
  if (levels.length === 0)
    throw conflict('The company has no dunning levels: set dunning.levels with POST /system/company.');
  const items = proposal(await overdueInvoices(c.tx, c.company.id, request.date), company, request.date);
  if (request.dry_run || items.length === 0) return { date: request.date, items: items.map((i) => i.item) };

  const runId = await insertRun(c.tx, c.company.id, request.date);
  const due = reminderDueDate(request.date);
  const claimed = await claimItems(
    c.tx,
    c.company.id,
    runId,
    items.map(
      ({ row, item, language }): NewItem => ({
        invoice_id: row.id,
        level: item.level,
        fee: String(item.fee),
        open: row.open,
        due_date: due,
        language,
        level_text: levels[item.level - 1]!.text[language],
      }),
    ),
  );
  // a level another run claimed meanwhile is that run's to send
  const sent = items.flatMap((p) => {
    const itemId = claimed.get(itemKey(p.row.id, p.item.level));
    return itemId === undefined ? [] : [{ ...p, itemId, due }];
  });
  if (sent.length === 0) {
    await deleteRun(c.tx, c.company.id, runId);
    return { date: request.date, items: [] };
  }
  const mailed = sent.filter((s) => s.row.email);
  const messages = await queueReminders(c, mail, company, mailed);
  const messageOf = new Map(mailed.map((s, i) => [s.itemId, messages[i]!.id]));
  // the fees last but the results: their events lock the company's event sequence until the commit
  const charged = sent.filter((s) => s.item.fee > 0);
  const feeIds = await bookFees(c, charged, company, request.date);
  const feeOf = new Map(charged.map((s, i) => [s.itemId, feeIds[i]!]));
  const results = sent.map((s) => ({
    id: s.itemId,
    fee_transaction_id: feeOf.get(s.itemId) ?? null,
    message_id: messageOf.get(s.itemId) ?? null,
  }));
  await recordItemResults(c.tx, c.company.id, results);
  await recordAudit(c.tx, c.company.id, c.actor, 'dunning_run', runId, 'send', {
    date: request.date,
    invoices: sent.map((s) => ({ id: s.item.invoice_id, level: s.item.level })),
  });
  return {
    id: runId,
    date: request.date,
    items: sent.map((s, i) => ({
      ...s.item,
      fee_transaction_id: results[i]!.fee_transaction_id,
      message_id: results[i]!.message_id,
    })),
  };
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
