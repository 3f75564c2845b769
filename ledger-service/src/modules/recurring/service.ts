import type { InvoiceInput, Language, RecurringSchedule, RecurringWrite } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { findMembership, type Company } from '../../db/companies.ts';
import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import type { Actor } from '../../domain/actor.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { getCompanyProfile } from '../company/index.ts';
import { getParty } from '../parties/index.ts';
import { createInvoice, documentLanguage, previewInvoice, type InvoiceContext } from '../invoices/index.ts';
import { emailInvoice, type MailSettings } from '../mail/index.ts';
import {
  assertPausable,
  assertResumable,
  assertSchedule,
  dateAfter,
  firstDateFrom,
  isDue,
  namePeriod,
  periodValues,
  statusOf,
  upcomingDates,
} from './rules.ts';
import {
  deleteRecurringRow,
  insertRecurring,
  listRecurringRows,
  markRecurringInvoice,
  recurringRow,
  updateRecurringRow,
  type RecurringRow,
} from './store.ts';

/**
 * Recurring invoices (docs/invoices.md "Recurring invoices"): a template checked by the invoice
 * rules when written (a draft made and rolled back in a savepoint), a schedule, a mode; and the
 * making of one due invoice, which the job (job.ts) calls in a transaction of its own for each
 * date, holding the template's row so that no second process makes the same one.
 */

const ENTITY = 'customer_recurring_invoice';

type Template = RecurringWrite['template'];

/** The invoice a template makes on `date`: its period named in the item texts, posted unless the mode is draft. */
export function invoiceOf(template: Template, date: string, language: Language, mode: RecurringWrite['mode']) {
  const values = periodValues(date, language);
  const items = template.items.map((item) =>
    item.description === undefined ? item : { ...item, description: namePeriod(item.description, values) },
  );
  return {
    ...template,
    items,
    type: 'invoice',
    invDate: date,
    ...(mode === 'draft' ? {} : { pending: '0' }),
  } as InvoiceInput;
}

/**
 * Checks the template as the invoice of `date` (the next one it will make; default the schedule's first);
 * what the rules computed is kept.
 */
async function checked(c: InvoiceContext, body: RecurringWrite, date?: string) {
  const first = assertSchedule(body.schedule);
  try {
    const read = await previewInvoice(c, invoiceOf(body.template, date ?? first, 'en', 'draft'));
    return { first, read };
  } catch (e) {
    // the invoice's field pointers name the template's fields
    if (e instanceof DomainError && e.field !== undefined && !e.field.startsWith('/template'))
      throw new DomainError(e.code, e.message, `/template${e.field}`);
    throw e;
  }
}

const scheduleOf = (row: RecurringRow) => row.schedule as RecurringSchedule;

export function recurringReadShape(row: RecurringRow) {
  return {
    id: Number(row.id),
    customer_id: Number(row.party_id),
    name: row.party_name,
    template: row.template,
    schedule: row.schedule,
    mode: row.mode,
    status: statusOf(row),
    currency: row.currency,
    grossAmount: Number(row.amount),
    next_date: row.next_date,
    last_date: row.last_date,
    invoice_count: Number(row.invoice_count),
    last_error: row.last_error,
  };
}

async function lockedRecurring(c: InvoiceContext, id: number): Promise<RecurringRow> {
  const row = await recurringRow(c.tx, c.company.id, id, 'wait');
  if (!row) throw notFound(`No recurring invoice with id ${id}.`);
  return row;
}

export async function createRecurring(c: InvoiceContext, body: RecurringWrite): Promise<{ id: number }> {
  const { first, read } = await checked(c, body);
  const id = await insertRecurring(c.tx, c.company.id, {
    party_id: Number(read.customer_id),
    template: body.template as Record<string, unknown>,
    schedule: body.schedule as Record<string, unknown>,
    mode: body.mode,
    currency: String(read.currency),
    amount: String(read.grossAmount ?? 0),
    next_date: first,
    acting_user_id: c.actor.userId,
  });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'create', { body });
  return { id };
}

export async function recurringById(c: InvoiceContext, id: number) {
  const row = await recurringRow(c.tx, c.company.id, id);
  if (!row) throw notFound(`No recurring invoice with id ${id}.`);
  return recurringReadShape(row);
}

/**
 * A new template, schedule or mode: the invoices made stay as they are; the next date is the
 * new schedule's first after the last invoice made (or from its start). The job now acts as
 * the member who changed it.
 */
export async function updateRecurring(c: InvoiceContext, id: number, body: RecurringWrite) {
  const row = await lockedRecurring(c, id);
  assertSchedule(body.schedule);
  const from = row.last_date === null ? body.schedule.start : (dateAfter(body.schedule, row.last_date) ?? null);
  const next = from === null ? null : firstDateFrom(body.schedule, from);
  // checked as the next invoice it makes (an earlier date may lie in a period closed since)
  const { read } = await checked(c, body, next ?? row.last_date ?? undefined);
  await updateRecurringRow(c.tx, c.company.id, id, {
    party_id: Number(read.customer_id),
    template: body.template as Record<string, unknown>,
    schedule: body.schedule as Record<string, unknown>,
    mode: body.mode,
    currency: String(read.currency),
    amount: String(read.grossAmount ?? 0),
    next_date: next,
    acting_user_id: c.actor.userId,
    last_error: null,
  });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'update', {
    previous: { template: row.template, schedule: row.schedule, mode: row.mode },
  });
  return recurringById(c, id);
}

export async function deleteRecurring(c: InvoiceContext, id: number): Promise<void> {
  const row = await lockedRecurring(c, id);
  await deleteRecurringRow(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'delete', { template: row.template });
}

export async function listRecurring(
  c: InvoiceContext,
  f: { status?: 'active' | 'paused' | 'ended'; customer_id?: number; limit: number; offset: number },
): Promise<ListPage<Record<string, unknown>>> {
  const { rows, total } = await listRecurringRows(c.tx, c.company.id, f);
  return { rows: rows.map(recurringReadShape), total };
}

export async function pauseRecurring(c: InvoiceContext, id: number) {
  const row = await lockedRecurring(c, id);
  assertPausable(id, statusOf(row));
  await updateRecurringRow(c.tx, c.company.id, id, { status: 'paused' });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'pause', {});
  return recurringById(c, id);
}

/** Resumed from `today` on: the dates that passed while it was paused are skipped. */
export async function resumeRecurring(c: InvoiceContext, id: number, today: string) {
  const row = await lockedRecurring(c, id);
  assertResumable(id, statusOf(row));
  const after = row.last_date === null ? today : (dateAfter(scheduleOf(row), row.last_date) ?? null);
  const from = after === null ? null : after > today ? after : today;
  await updateRecurringRow(c.tx, c.company.id, id, {
    status: 'active',
    next_date: from === null ? null : firstDateFrom(scheduleOf(row), from),
    acting_user_id: c.actor.userId,
    last_error: null,
  });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'resume', {});
  return recurringById(c, id);
}

/** The next `count` dates with the gross amount of each invoice; none while paused or ended. */
export async function previewRecurring(c: InvoiceContext, id: number, count: number) {
  const row = await recurringRow(c.tx, c.company.id, id);
  if (!row) throw notFound(`No recurring invoice with id ${id}.`);
  if (statusOf(row) !== 'active') return [];
  return upcomingDates(scheduleOf(row), row.next_date, count).map((date) => ({
    date,
    grossAmount: Number(row.amount),
  }));
}

// --- the job's step --------------------------------------------------------------------------

/** What the job works with besides the company's transaction. */
export interface JobSettings {
  mail: MailSettings;
  /** absolute URL of `/client/{dataset}/arap/invoice/customer` for the company (file links in reads) */
  invoiceUrlBase(company: Company): string;
}

/** The member the job acts as: whoever set the recurring invoice up or changed it last, with their role and limit. */
async function actingMember(tx: Tx, company: Company, row: RecurringRow): Promise<Actor> {
  const member = await findMembership(tx, company.id, Number(row.acting_user_id));
  if (!member?.user_active)
    throw new DomainError(
      'forbidden',
      `The member who set up recurring invoice ${row.id} is no longer a member; change it to act in their stead.`,
    );
  return {
    userId: Number(member.user_id),
    role: member.role,
    approvalLimit: member.approval_limit,
    via: { kind: 'system', id: null, label: 'recurring invoices' },
  };
}

/**
 * Makes the invoice of recurring invoice `id`'s next date if it is due on `today`, in the
 * caller's transaction: the template's row is taken with SKIP LOCKED (another process making it
 * now: nothing to do here), the invoice made (posted, and e-mailed, as the mode says) and linked
 * to it and its date (unique), and the next date moved on. 'made' when an invoice was made.
 */
export async function makeDueInvoice(
  tx: Tx,
  company: Company,
  settings: JobSettings,
  id: number,
  today: string,
): Promise<'made' | 'none'> {
  const row = await recurringRow(tx, company.id, id, 'skip');
  if (row?.status !== 'active' || !isDue(row.next_date, today)) return 'none';
  const date = row.next_date;
  const c: InvoiceContext = {
    tx,
    company,
    actor: await actingMember(tx, company, row),
    vc: 'customer',
    read: { fileUrlBase: settings.invoiceUrlBase(company), baseCurrency: company.base_currency },
  };
  const party = await getParty(tx, company.id, 'customer', Number(row.party_id));
  const language = documentLanguage(undefined, party, await getCompanyProfile(tx, company.id));
  const { id: invoiceId } = await createInvoice(c, invoiceOf(row.template as Template, date, language, row.mode), []);
  await markRecurringInvoice(tx, company.id, invoiceId, id, date);
  let note: string | null = null;
  if (row.mode === 'post_and_email') {
    if (typeof party?.email === 'string') await emailInvoice(c, settings.mail, invoiceId, {});
    else note = `Invoice ${invoiceId} of ${date} was posted but not e-mailed: the customer has no e-mail address.`;
  }
  await updateRecurringRow(tx, company.id, id, {
    next_date: dateAfter(scheduleOf(row), date),
    last_date: date,
    invoice_count: Number(row.invoice_count) + 1,
    last_error: note,
  });
  await recordAudit(tx, company.id, c.actor, ENTITY, id, 'invoice', { invoice_id: invoiceId, date });
  return 'made';
}

/** Notes why making a due invoice failed (the job retries it on its next round). */
export async function noteFailure(tx: Tx, companyId: number, id: number, reason: string): Promise<void> {
  await updateRecurringRow(tx, companyId, id, { last_error: reason.slice(0, 1000) });
}
