import type { FromSchema } from 'json-schema-to-ts';
import {
  asTransactionInput,
  customerFieldsOf,
  formatAmount,
  Money,
  partyRefOf,
  requestsPosting,
  type BodyOf,
  type contracts,
  type InvoiceInput,
  type invoiceReadSchema,
  type Vc,
} from '@ledger/shared';
import { nextNumber } from '../../db/sequences.ts';
import type { Tx } from '../../db/knex.ts';
import { findServiceForItem } from '../services/index.ts';
import {
  approveTransaction,
  createTransaction,
  deleteTransaction,
  lockHeader,
  reverseTransaction,
  transactionById,
  transactionFile,
  updateTransaction,
  type DocumentKind,
  type DocumentWrite,
  type WriteContext,
  type FileContent,
  type TransactionRead,
} from '../arap/index.ts';
import { conflict, DomainError, notFound, ruleInvalid } from '../../domain/errors.ts';
import { openCredits, readInvoice } from './reads.ts';
import { dueDateFromTerms, fillItem, itemLine, type FilledItem } from './rules.ts';
import { copyToReversal, invoiceColumns, itemRows, partyTerms } from './store.ts';
import { assignPaymentReference, newPaymentReference } from './paymentReference.ts';

/**
 * The invoice workflow: the AR/AP transaction workflow (states, numbering, closed period,
 * approval limit, party, currency, FX, files, audit) run on the invoice's items turned into
 * lines; the items themselves are saved beside the lines, in the same transaction.
 */
export const INVOICE_KIND: DocumentKind = {
  type: 'invoice',
  noun: 'invoice',
  entity: (vc) => `${vc}_invoice`,
  read: readInvoice,
  copyToReversal,
};

export type InvoiceContext = Omit<WriteContext, 'kind'>;

type InvoiceRead = FromSchema<typeof invoiceReadSchema>;

/** Credit notes are numbered by a sequence of their own per side (CN-000001, APCN-000001). */
const creditNoteSequence = (vc: Vc) => (vc === 'customer' ? 'ar_credit_note' : 'ap_credit_note');

const asInvoice = (c: InvoiceContext): WriteContext => ({ ...c, kind: INVOICE_KIND });

/**
 * The posting rules name the lines the items became (`/lines/1/account`): the caller sent items (`/items/1/account`).
 */
async function itemPointers<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof DomainError && e.field?.startsWith('/lines/'))
      throw new DomainError(e.code, e.message, e.field.replace('/lines/', '/items/'));
    throw e;
  }
}

/** Items filled from their services, checked, and turned into the document's lines. */
async function toDocumentWrite(c: InvoiceContext, input: InvoiceInput, files: FileContent[]): Promise<DocumentWrite> {
  const currency = input.curr ?? c.company.base_currency.trim();
  const items: FilledItem[] = [];
  for (const [i, item] of input.items.entries()) {
    const at = `/items/${i}`;
    const service = await findServiceForItem(c.tx, c.company.id, {
      service_id: item.service_id,
      partnumber: item.partnumber,
    });
    if (!service && (item.service_id !== undefined || item.partnumber !== undefined)) {
      const which = item.service_id !== undefined ? `id ${item.service_id}` : `partnumber "${item.partnumber}"`;
      throw ruleInvalid(
        `No service with ${which} in the catalogue.`,
        item.service_id !== undefined ? `${at}/service_id` : `${at}/partnumber`,
      );
    }
    items.push(fillItem(c.vc, item, service, currency, at));
  }
  const lines = items.map((item, i) => itemLine(item, currency, `/items/${i}`));
  const own = customerFieldsOf(input);
  // payment terms: as sent, else the customer's; they give the due date when none is sent
  const terms =
    c.vc === 'customer'
      ? (own.terms ??
        (await partyTerms(c.tx, c.company.id, c.vc, partyRefOf(c.vc, asTransactionInput(input, lines, undefined)))))
      : undefined;
  const dueDate = input.dueDate ?? (terms === undefined ? undefined : dueDateFromTerms(input.invDate, terms));
  return {
    input: asTransactionInput(input, lines, dueDate),
    files,
    typeColumns: invoiceColumns({ ...own, terms }),
    children: itemRows(items),
  };
}

export async function createInvoice(
  c: InvoiceContext,
  input: InvoiceInput,
  files: FileContent[],
): Promise<{ id: number }> {
  const doc = await toDocumentWrite(c, input, files);
  // posted at once: the reference is drawn first and written with the header
  const reference =
    c.vc === 'customer' && requestsPosting(input) ? await newPaymentReference(c.tx, c.company.id) : undefined;
  const { id } = await itemPointers(
    createTransaction(
      asInvoice(c),
      reference === undefined ? doc : { ...doc, typeColumns: { ...doc.typeColumns, qr_reference: reference } },
    ),
  );
  return { id };
}

export async function updateInvoice(
  c: InvoiceContext,
  id: number,
  input: InvoiceInput,
  files: FileContent[],
): Promise<TransactionRead> {
  const read = await itemPointers(updateTransaction(asInvoice(c), id, await toDocumentWrite(c, input, files)));
  if (read.status !== 'posted') return read;
  await assignPaymentReference(c, id);
  return invoiceById(c, id);
}

export async function approveInvoice(
  c: InvoiceContext,
  id: number,
  input: InvoiceInput,
  files: FileContent[],
): Promise<TransactionRead> {
  await itemPointers(approveTransaction(asInvoice(c), id, await toDocumentWrite(c, input, files)));
  await assignPaymentReference(c, id);
  return invoiceById(c, id);
}

export const invoiceById = (c: InvoiceContext, id: number) => transactionById(asInvoice(c), id);
export const deleteInvoice = (c: InvoiceContext, id: number) => deleteTransaction(asInvoice(c), id);
export const reverseInvoice = (c: InvoiceContext, id: number, opts: { date: string; description?: string }) =>
  reverseTransaction(asInvoice(c), id, opts);
export const invoiceFile = (tx: Tx, companyId: number, vc: Vc, id: number, fileId: number) =>
  transactionFile(tx, companyId, vc, id, fileId, INVOICE_KIND);

// --- credit notes -------------------------------------------------------------------------

/**
 * Credit notes (docs/invoices.md "Credit notes"): posted documents of type `credit_note` with
 * the credited items' quantities negated, so their lines, VAT and control line reverse the
 * invoice's share; read and printed like invoices, numbered by a sequence of their own.
 */
export const CREDIT_NOTE_KIND: DocumentKind = {
  type: 'credit_note',
  noun: 'credit note',
  entity: (vc) => `${vc}_credit_note`,
  read: readInvoice,
};

export type CreditNoteRequest = BodyOf<typeof contracts.createCreditNote>;

/** The invoice's items as a credit note's: quantity negated, the tax as invoiced (negated) unless items are sent. */
function creditedItems(invoice: InvoiceRead, request: CreditNoteRequest): InvoiceInput['items'] {
  if (request.items) {
    return request.items.map((item) => ({ ...item, quantity: -(item.quantity ?? 0) })) as InvoiceInput['items'];
  }
  return (invoice.items ?? []).map((i) =>
    compactItem({
      description: i.description,
      quantity: -(i.quantity ?? 0),
      unit: i.unit,
      price: i.price ?? 0,
      discount: i.discount,
      account: i.account,
      taxAccount: i.taxAccount,
      taxAmount: i.taxAccount === undefined ? undefined : -(i.tax ?? 0),
    }),
  ) as InvoiceInput['items'];
}

const compactItem = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

/**
 * `POST /arap/invoice/{vc}/{id}/credit_note`: a posted credit note of a posted invoice, dated
 * `date`, for the items sent or the whole invoice; never more than the invoice's open amount.
 * The invoice row is locked, so two credit notes at once cannot both take its open amount.
 */
export async function createCreditNote(
  c: InvoiceContext,
  invoiceId: number,
  request: CreditNoteRequest,
): Promise<{ id: number }> {
  const row = await lockHeader(c.tx, c.company.id, c.vc, invoiceId, 'invoice');
  if (!row) throw notFound(`No ${c.vc} invoice with id ${invoiceId}.`);
  if (row.status !== 'posted')
    throw conflict(`Invoice ${invoiceId} is ${row.status}; only posted invoices get credit notes.`);
  if (row.reversal_of_id !== null) throw conflict(`Invoice ${invoiceId} reverses another invoice.`);
  if (request.date < row.inv_date)
    throw ruleInvalid(`The credit note's date must not lie before the invoice date ${row.inv_date}.`, '/date');
  const invoice = (await invoiceById(c, invoiceId)) as InvoiceRead;
  const base = c.company.base_currency.trim();
  const currency = invoice.currency ?? base;
  const input = {
    type: 'invoice',
    [`${c.vc}_id`]: invoice[`${c.vc}_id`],
    invNumber: await nextNumber(c.tx, c.company, creditNoteSequence(c.vc)),
    invDate: request.date,
    curr: currency,
    ...(currency === base ? {} : { exchangerate: invoice.exchangerate }),
    ...(invoice.recordAccount ? { recordAccount: invoice.recordAccount } : {}),
    ...(invoice.taxincluded ? { taxincluded: true } : {}),
    description: request.reason,
    pending: '0',
    items: creditedItems(invoice, request),
  } as InvoiceInput;
  const doc = await toDocumentWrite(c, input, []);
  const { id } = await itemPointers(
    createTransaction(
      { ...c, kind: CREDIT_NOTE_KIND },
      {
        ...doc,
        input: { ...doc.input, dueDate: request.date },
        typeColumns: { ...doc.typeColumns, credit_of_id: invoiceId, reason: request.reason },
      },
    ),
  );
  const credit = (await invoiceById(c, id)) as InvoiceRead;
  // what earlier credit notes of the invoice have not yet allocated is credited already
  const open = new Money(invoice.open ?? 0).plus(await openCredits(c.tx, c.company.id, invoiceId, id));
  const gross = new Money(credit.grossAmount ?? 0).negated();
  if (gross.lte(0)) throw ruleInvalid('A credit note must credit a positive amount; send positive quantities.');
  if (gross.gt(open)) {
    throw new DomainError(
      'amount_exceeded',
      `The credit note of ${formatAmount(gross, currency)} exceeds the open amount of invoice ${invoiceId} ` +
        `(${formatAmount(open, currency)}).`,
    );
  }
  return { id };
}

// --- previews (quotes, recurring invoices) ------------------------------------------------

const PREVIEW_ROLLBACK = Symbol('preview');

/**
 * What an invoice body would be as a draft — items with amounts and tax, taxes, totals — checked by every rule of a
 * real invoice and written nowhere: the draft is made in a savepoint that is rolled back (its number, audit entry and
 * event with it). Refusals are the invoice's, with their field pointers.
 */
export async function previewInvoice(c: InvoiceContext, input: InvoiceInput): Promise<InvoiceRead> {
  let read: InvoiceRead | undefined;
  try {
    await c.tx.transaction(async (savepoint) => {
      const inner = { ...c, tx: savepoint };
      const { pending: _pending, ...draft } = input;
      const { id } = await createInvoice(inner, draft as InvoiceInput, []);
      read = (await invoiceById(inner, id)) as InvoiceRead;
      throw PREVIEW_ROLLBACK;
    });
  } catch (e) {
    if (e !== PREVIEW_ROLLBACK) throw e;
  }
  return read!;
}
