import { contracts, customerTransactionBatchEntrySchema, vendorTransactionBatchEntrySchema } from '@ledger/shared';
import { batchBody } from '../../kernel/batch.ts';
import { today } from '../../domain/period.ts';
import {
  approveTransaction,
  createTransaction,
  createTransactions,
  deleteTransaction,
  deleteTransactionFile,
  reverseTransaction,
  transactionById,
  transactionFile,
  updateTransaction,
  listTransactions,
  collectFiles,
  transactionBody,
  documentContext,
  documentId,
  optionalBody,
} from '../arap/index.ts';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';

/** AR/AP transactions: `/arap/transaction/{vc}` (rules in docs/posting.md). */

const writeContext = (req: Parameters<typeof documentContext>[0]) => documentContext(req, 'transaction');
// each document of a batch checked on its own against its side's single-document shape (kernel/batch.ts)
const batchEntry = {
  vendor: batchBody(vendorTransactionBatchEntrySchema),
  customer: batchBody(customerTransactionBatchEntrySchema),
};
const docId = (req: Parameters<typeof documentId>[0]) => documentId(req, 'transaction');

export const transactionRoutes = [
  route(
    contracts.createTransaction,
    async (req) => {
      // the answer is the new id: nothing follows the document's statement in the request's transaction
      const { id } = await createTransaction(
        writeContext(req),
        { input: req.body, files: collectFiles(req, req.body) },
        { last: true },
      );
      return { id };
    },
    { prepareBody: transactionBody({ complete: false }) },
  ),
  route(
    contracts.createTransactions,
    async (req) => ({ ids: await createTransactions(writeContext(req), req.body.transactions) }),
    { prepareBody: (ctx) => batchEntry[ctx.params.vc as 'vendor' | 'customer'](ctx) },
  ),
  route(
    contracts.updateTransaction,
    async (req) =>
      updateTransaction(writeContext(req), docId(req), { input: req.body, files: collectFiles(req, req.body) }),
    { prepareBody: transactionBody({ complete: true }) },
  ),
  route(
    contracts.approveTransaction,
    async (req) =>
      approveTransaction(writeContext(req), docId(req), { input: req.body, files: collectFiles(req, req.body) }),
    { prepareBody: transactionBody({ complete: true, approve: true }) },
  ),
  route(
    contracts.reverseTransaction,
    async (req) => {
      const { id } = await reverseTransaction(writeContext(req), docId(req), {
        date: req.body.date ?? today(),
        description: req.body.description,
      });
      return { id };
    },
    { prepareBody: optionalBody },
  ),
  route(contracts.deleteTransaction, async (req) => {
    await deleteTransaction(writeContext(req), docId(req));
    return undefined;
  }),
  route(contracts.getTransaction, async (req) => transactionById(writeContext(req), docId(req))),
  route(contracts.downloadTransactionFile, async (req) => {
    const file = await transactionFile(
      req.tx,
      req.company.id,
      req.params.vc,
      docId(req),
      idParam(req.params.fileId, 'file'),
    );
    req.ctx.attachment(file.name, { type: 'attachment' });
    req.ctx.type = file.media_type;
    return file.data;
  }),
  route(contracts.deleteTransactionFile, async (req) => {
    await deleteTransactionFile(writeContext(req), docId(req), idParam(req.params.fileId, 'file'));
    return undefined;
  }),
  route(contracts.listTransactions, async (req) => listTransactions(req.tx, req.company.id, req.params.vc, req.query)),
];
