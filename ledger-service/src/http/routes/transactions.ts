import {
  createdSchema, customerTransactionListQuerySchema, customerTransactionSchema, transactionReadSchema,
  transactionReverseSchema, vendorTransactionListQuerySchema, vendorTransactionSchema, type TransactionInput,
} from '@ledger/shared';
import {
  approveTransaction, createTransaction, deleteTransaction, deleteTransactionFile, reverseTransaction, today, updateTransaction, type WriteContext,
} from '../../db/transactions.ts';
import { listTransactions, readFile, readTransaction, type ListFilter } from '../../db/transactionReads.ts';
import type { Vc } from '../../domain/posting.ts';
import { ApiError } from '../errors.ts';
import type { RouteDef, RouteRequest } from '../route.ts';
import { collectFiles, transactionBody } from '../transactionBody.ts';
import { idParam } from './params.ts';

/** AR/AP transactions: `/arap/transaction/{vc}` (SPEC.md "AR/AP transaction"; rules in docs/posting.md). */

const writeSchemas = { vendor: vendorTransactionSchema, customer: customerTransactionSchema };
const readSchemas = { vendor: transactionReadSchema, customer: transactionReadSchema };

function writeContext(req: RouteRequest): WriteContext {
  const vc = req.params.vc as Vc;
  return {
    tx: req.tx,
    company: req.company,
    actor: req.actor,
    vc,
    read: { fileUrlBase: `${req.ctx.protocol}://${req.ctx.host}/client/${req.company.dataset}/arap/transaction/${vc}`, baseCurrency: req.company.base_currency },
  };
}

const docId = (req: RouteRequest) => idParam(req.params.id, `${req.params.vc} transaction`);

export const transactionRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/arap/transaction/:vc',
    summary:
      'Create an AR/AP transaction: a draft without pending, posted with pending "0". JSON, or multipart/form-data with the ' +
      'JSON in a part named "transaction" and one "files" part per attachment',
    bodyBySide: writeSchemas,
    prepareBody: transactionBody({ complete: false }),
    status: 201,
    response: createdSchema,
    handler: async (req: RouteRequest<TransactionInput>) => {
      const { id } = await createTransaction(writeContext(req), { input: req.body, files: collectFiles(req.ctx, req.body) });
      return { id };
    },
  },
  {
    method: 'POST',
    path: '/arap/transaction/:vc/:id',
    summary:
      'Update with the complete document (lines replaced; files sent are added unless name and content equal an attachment ' +
      'the document already has). Posted documents only while unpaid',
    bodyBySide: writeSchemas,
    prepareBody: transactionBody({ complete: true }),
    responseBySide: readSchemas,
    handler: async (req: RouteRequest<TransactionInput>) =>
      updateTransaction(writeContext(req), docId(req), { input: req.body, files: collectFiles(req.ctx, req.body) }),
  },
  {
    method: 'POST',
    path: '/arap/transaction/:vc/:id/approve',
    summary: 'Approve a draft: saves the complete document sent (pending "0"), then posts it',
    bodyBySide: writeSchemas,
    prepareBody: transactionBody({ complete: true, approve: true }),
    responseBySide: readSchemas,
    handler: async (req: RouteRequest<TransactionInput>) =>
      approveTransaction(writeContext(req), docId(req), { input: req.body, files: collectFiles(req.ctx, req.body) }),
  },
  {
    method: 'POST',
    path: '/arap/transaction/:vc/:id/reverse',
    summary: 'Reverse a posted document: a new posted document with every line negated, dated `date` (default today)',
    body: transactionReverseSchema,
    // the body is optional: no body at all means {}
    prepareBody: (ctx) => (ctx.request.body === undefined || ctx.request.body === null || ctx.request.body === '' ? {} : ctx.request.body),
    status: 201,
    response: createdSchema,
    handler: async (req: RouteRequest<{ date?: string; description?: string }>) => {
      const { id } = await reverseTransaction(writeContext(req), docId(req), { date: req.body.date ?? today(), description: req.body.description });
      return { id };
    },
  },
  {
    method: 'DELETE',
    path: '/arap/transaction/:vc/:id',
    summary: 'Delete a draft (409 for posted or reversed documents)',
    status: 204,
    handler: async (req) => {
      await deleteTransaction(writeContext(req), docId(req));
      return undefined;
    },
  },
  {
    method: 'GET',
    path: '/arap/transaction/:vc/:id',
    summary: 'One transaction: written fields with `currency`, per-line and per-tax-account tax, totals, status, postings, files',
    responseBySide: readSchemas,
    handler: async (req) => {
      const c = writeContext(req);
      const doc = await readTransaction(req.tx, c.vc, docId(req), c.read);
      if (!doc) throw new ApiError('not_found', `No ${c.vc} transaction with id ${req.params.id}.`);
      return doc;
    },
  },
  {
    method: 'GET',
    path: '/arap/transaction/:vc/:id/files/:fileId',
    summary: 'Download one attached file',
    handler: async (req) => {
      const vc = req.params.vc as Vc;
      const file = await readFile(req.tx, vc, docId(req), idParam(req.params.fileId, 'file'));
      if (!file) throw new ApiError('not_found', `No file ${req.params.fileId} on ${vc} transaction ${req.params.id}.`);
      req.ctx.type = file.media_type;
      req.ctx.attachment(file.name, { type: 'attachment' });
      req.ctx.type = file.media_type;
      return file.data;
    },
  },
  {
    method: 'DELETE',
    path: '/arap/transaction/:vc/:id/files/:fileId',
    summary:
      'Delete one attached file: drafts, and posted documents while unpaid (409 for reversed documents and reversals); audited',
    status: 204,
    handler: async (req) => {
      await deleteTransactionFile(writeContext(req), docId(req), idParam(req.params.fileId, 'file'));
      return undefined;
    },
  },
  {
    method: 'GET',
    path: '/arap/transactions/:vc',
    summary:
      'List transactions by document_number, inv_number, status, date range (from/to), party or payment_file; ' +
      'ordered by invDate, then id, unless `sort` says otherwise',
    queryBySide: { vendor: vendorTransactionListQuerySchema, customer: customerTransactionListQuerySchema },
    responseBySide: { vendor: { type: 'array', items: transactionReadSchema }, customer: { type: 'array', items: transactionReadSchema } },
    list: true,
    handler: async (req: RouteRequest<unknown, ListFilter>) => listTransactions(req.tx, req.params.vc as Vc, req.query),
  },
];
