import {
  displayAmount,
  formatDate,
  translatorFor,
  type BodyOf,
  type contracts,
  type InvoiceInput,
  type Language,
  type QuoteWrite,
} from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { nextNumber } from '../../db/sequences.ts';
import type { ListPage } from '../../db/listOrder.ts';
import { notFound, ruleInvalid } from '../../domain/errors.ts';
import { today } from '../../domain/period.ts';
import { getCompanyProfile } from '../company/index.ts';
import { getParty } from '../parties/index.ts';
import {
  createInvoice,
  documentLanguage,
  documentPdf,
  previewInvoice,
  type InvoiceContext,
} from '../invoices/index.ts';
import { letter, senderOf, type MailSettings } from '../mail/index.ts';
import { queueMessage, type QueuedMessage } from '../outbox/index.ts';
import { assertChangeable, assertInvoiceable, assertTransition, assertValidUntil, effectiveStatus } from './rules.ts';
import { deleteQuoteRow, insertQuote, listQuoteRows, quoteRow, updateQuoteRow, type QuoteRow } from './store.ts';

/**
 * Quotes (Offerten, docs/invoices.md "Quotes"): an invoice body with a last day, checked by the
 * invoice rules when written (a draft invoice made and rolled back in a savepoint) and kept with
 * what the rules computed; PDF and e-mail in the customer's language; a draft invoice when
 * accepted. A quote never touches the ledger.
 */

type Computed = Record<string, unknown> & { grossAmount?: number; netAmount?: number; taxAmount?: number };

const ENTITY = 'customer_quote';

/** The quote's body as the invoice it becomes (a draft). */
function invoiceBodyOf(body: Record<string, unknown>, invDate?: string): InvoiceInput {
  const { valid_until: _v, ...rest } = body;
  return { ...rest, type: 'invoice', ...(invDate ? { invDate } : {}) } as InvoiceInput;
}

/** Runs the invoice rules over the body: the amounts to keep, or the invoice's refusal. */
async function computeQuote(c: InvoiceContext, body: QuoteWrite) {
  assertValidUntil(body.invDate, body.valid_until);
  const read = (await previewInvoice(c, invoiceBodyOf(body))) as Record<string, unknown> & Computed;
  const computed: Computed = {
    currency: read.currency,
    items: read.items,
    taxes: read.taxes,
    netAmount: read.netAmount,
    taxAmount: read.taxAmount,
    grossAmount: read.grossAmount,
  };
  return { read, computed };
}

function columnsOf(body: QuoteWrite, read: Record<string, unknown>, computed: Computed) {
  return {
    party_id: Number(read.customer_id),
    quote_date: body.invDate,
    valid_until: body.valid_until,
    currency: String(read.currency),
    net_amount: String(computed.netAmount ?? 0),
    tax_amount: String(computed.taxAmount ?? 0),
    amount: String(computed.grossAmount ?? 0),
    body: body as Record<string, unknown>,
    computed,
  };
}

/** The read shape: the body as written (customer by id), what the rules computed, number, status, invoice. */
export function quoteReadShape(row: QuoteRow, day: string, withItems = true) {
  // the items as the rules computed them (with amount and tax), not as written
  const { customernumber: _n, customer_id: _c, curr: _curr, items: _items, ...body } = row.body;
  const { items, taxes, ...totals } = row.computed;
  return {
    ...body,
    id: Number(row.id),
    number: row.number,
    status: effectiveStatus(row, day),
    customer_id: Number(row.party_id),
    name: row.party_name,
    invDate: row.quote_date,
    valid_until: row.valid_until,
    ...totals,
    currency: row.currency,
    ...(withItems ? { items, taxes } : {}),
    invoice_id: row.invoice_id === null ? null : Number(row.invoice_id),
  };
}

async function lockedQuote(c: InvoiceContext, id: number): Promise<QuoteRow> {
  const row = await quoteRow(c.tx, c.company.id, id, true);
  if (!row) throw notFound(`No quote with id ${id}.`);
  return row;
}

export async function createQuote(c: InvoiceContext, body: QuoteWrite): Promise<{ id: number }> {
  const { read, computed } = await computeQuote(c, body);
  const number = await nextNumber(c.tx, c.company, 'quote');
  const id = await insertQuote(c.tx, { company_id: c.company.id, number, ...columnsOf(body, read, computed) });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'create', { number, gross: computed.grossAmount });
  return { id };
}

export async function quoteById(c: InvoiceContext, id: number) {
  const row = await quoteRow(c.tx, c.company.id, id);
  if (!row) throw notFound(`No quote with id ${id}.`);
  return quoteReadShape(row, today());
}

export async function updateQuote(c: InvoiceContext, id: number, body: QuoteWrite) {
  const row = await lockedQuote(c, id);
  assertChangeable(id, effectiveStatus(row, today()));
  const { read, computed } = await computeQuote(c, body);
  await updateQuoteRow(c.tx, c.company.id, id, columnsOf(body, read, computed));
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'update', { previous: row.body });
  return quoteById(c, id);
}

export async function deleteQuote(c: InvoiceContext, id: number): Promise<void> {
  const row = await lockedQuote(c, id);
  if (row.status === 'invoiced') assertChangeable(id, 'invoiced');
  await deleteQuoteRow(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'delete', { number: row.number, body: row.body });
}

export async function listQuotes(
  c: InvoiceContext,
  f: { status?: string; customer_id?: number; limit: number; offset: number },
): Promise<ListPage<Record<string, unknown>>> {
  const day = today();
  const { rows, total } = await listQuoteRows(c.tx, c.company.id, f, day);
  return { rows: rows.map((r) => quoteReadShape(r, day, false)), total };
}

export async function setQuoteStatus(c: InvoiceContext, id: number, status: 'sent' | 'accepted' | 'declined') {
  const row = await lockedQuote(c, id);
  assertTransition(id, effectiveStatus(row, today()), status);
  await updateQuoteRow(c.tx, c.company.id, id, { status });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'status', { from: row.status, to: status });
  return quoteById(c, id);
}

/** `POST …/{id}/invoice`: a draft invoice of the quote's body, dated `invDate` or today; the quote names it. */
export async function invoiceQuote(c: InvoiceContext, id: number, invDate?: string): Promise<{ id: number }> {
  const row = await lockedQuote(c, id);
  assertInvoiceable(id, effectiveStatus(row, today()));
  const created = await createInvoice(c, invoiceBodyOf(row.body, invDate ?? today()), []);
  await updateQuoteRow(c.tx, c.company.id, id, { status: 'invoiced', invoice_id: created.id });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'invoice', { invoice_id: created.id });
  return { id: created.id };
}

async function quoteDocument(c: InvoiceContext, row: QuoteRow, asked?: Language) {
  const read = quoteReadShape(row, today());
  return documentPdf(c, { ...read, invNumber: row.number } as Parameters<typeof documentPdf>[1], {
    asked,
    kind: 'quote',
    validUntil: row.valid_until,
    number: row.number,
  });
}

export async function quotePdf(c: InvoiceContext, id: number, asked?: Language) {
  const row = await quoteRow(c.tx, c.company.id, id);
  if (!row) throw notFound(`No quote with id ${id}.`);
  return quoteDocument(c, row, asked);
}

const list = (v: string | readonly string[] | undefined): string[] =>
  v === undefined ? [] : typeof v === 'string' ? [v] : [...v];

/** `POST …/{id}/email`: the quote's PDF to the customer in its language; a draft becomes sent. */
export async function emailQuote(
  c: InvoiceContext,
  mail: MailSettings,
  id: number,
  request: BodyOf<typeof contracts.emailQuote>,
): Promise<QueuedMessage> {
  const row = await lockedQuote(c, id);
  const status = effectiveStatus(row, today());
  assertTransition(id, status, 'sent');
  const party = await getParty(c.tx, c.company.id, 'customer', Number(row.party_id));
  const to = list(request.to);
  if (to.length === 0) {
    if (typeof party?.email !== 'string')
      throw ruleInvalid(`The customer of quote ${id} has no e-mail address; give "to".`, '/to');
    to.push(party.email);
  }
  const company = await getCompanyProfile(c.tx, c.company.id);
  const language = documentLanguage(undefined, party, company);
  const t = translatorFor(language);
  const { fileName, pdf } = await quoteDocument(c, row, language);
  const values = {
    number: row.number,
    company: company.name,
    amount: displayAmount(row.amount, row.currency),
    date: formatDate(row.valid_until),
  };
  const queued = await queueMessage(c, mail.queue, {
    kind: 'other',
    transactionId: null,
    from: senderOf(company, mail.fallbackSender),
    to,
    cc: list(request.cc),
    subject: request.subject ?? t('document.email.quoteSubject', values),
    text: request.message ?? letter(language, company.name, [t('document.email.quoteBody', values)]),
    attachments: [{ filename: fileName, mediaType: 'application/pdf', data: pdf }],
  });
  if (row.status === 'draft') await updateQuoteRow(c.tx, c.company.id, id, { status: 'sent' });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'email', { message_id: queued.id, to });
  return queued;
}
