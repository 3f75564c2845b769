import { contracts, type Side } from '@ledger/shared';
import {
  approveTransaction, createTransaction, deleteTransaction, deleteTransactionFile, reverseTransaction, today, transactionById, transactionFile,
  updateTransaction, type WriteContext,
} from './service.ts';
import { listTransactions } from './reads.ts';
import { route, type RouteRequest } from '../../kernel/route.ts';
import { collectFiles, transactionBody } from './body.ts';
import { idParam } from '../../kernel/params.ts';

/** AR/AP transactions: `/arap/transaction/{vc}` (SPEC.md "AR/AP transaction"; rules in docs/posting.md). */

type SideRequest = Pick<RouteRequest, 'ctx' | 'tx' | 'company' | 'actor'> & { params: { vc: Side } };

function writeContext(req: SideRequest): WriteContext {
  const { vc } = req.params;
  return {
    tx: req.tx,
    company: req.company,
    actor: req.actor,
    vc,
    read: { fileUrlBase: `${req.ctx.protocol}://${req.ctx.host}/client/${req.company.dataset}/arap/transaction/${vc}`, baseCurrency: req.company.base_currency },
  };
}

const docId = (req: { params: { vc: Side; id: string } }) => idParam(req.params.id, `${req.params.vc} transaction`);

/** reverse takes an optional body: none at all means {} */
const optionalBody = (ctx: RouteRequest['ctx']) =>
  ctx.request.body === undefined || ctx.request.body === null || ctx.request.body === '' ? {} : ctx.request.body;

export const transactionRoutes = [
  route(
    contracts.createTransaction,
    async (req) => {
      const { id } = await createTransaction(writeContext(req), { input: req.body, files: collectFiles(req.ctx, req.body) });
      return { id };
    },
    { prepareBody: transactionBody({ complete: false }) },
  ),
  route(
    contracts.updateTransaction,
    async (req) => updateTransaction(writeContext(req), docId(req), { input: req.body, files: collectFiles(req.ctx, req.body) }),
    { prepareBody: transactionBody({ complete: true }) },
  ),
  route(
    contracts.approveTransaction,
    async (req) => approveTransaction(writeContext(req), docId(req), { input: req.body, files: collectFiles(req.ctx, req.body) }),
    { prepareBody: transactionBody({ complete: true, approve: true }) },
  ),
  route(
    contracts.reverseTransaction,
    async (req) => {
      const { id } = await reverseTransaction(writeContext(req), docId(req), { date: req.body.date ?? today(), description: req.body.description });
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
    const file = await transactionFile(req.tx, req.params.vc, docId(req), idParam(req.params.fileId, 'file'));
    req.ctx.attachment(file.name, { type: 'attachment' });
    req.ctx.type = file.media_type;
    return file.data;
  }),
  route(contracts.deleteTransactionFile, async (req) => {
    await deleteTransactionFile(writeContext(req), docId(req), idParam(req.params.fileId, 'file'));
    return undefined;
  }),
  route(contracts.listTransactions, async (req) => listTransactions(req.tx, req.params.vc, req.query)),
];
