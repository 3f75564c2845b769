import {
  asTransactionInput,
  customerFieldsOf,
  partyRefOf,
  requestsPosting,
  type InvoiceInput,
  type Vc,
} from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { findServiceForItem } from '../services/index.ts';
import {
  approveTransaction,
  createTransaction,
  deleteTransaction,
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
import { DomainError, ruleInvalid } from '../../domain/errors.ts';
import { readInvoice } from './reads.ts';
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
