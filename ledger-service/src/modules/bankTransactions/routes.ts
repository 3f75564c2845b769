import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { bankTransactionById, bookBankTransaction, importStatementFile, listBankTransactions } from './service.ts';

/** Bank statement import and the imported transactions: `/bank/transactions…`. */
export const bankTransactionRoutes = [
  route(contracts.importBankTransactions, async (req) =>
    // the kernel read the file as text and accepted its media type (contract textBody)
    importStatementFile(req, req.body, String(req.ctx.state.textBodyType), req.query)),
  route(contracts.listBankTransactions, async (req) => listBankTransactions(req.tx, req.query)),
  route(contracts.getBankTransaction, async (req) => bankTransactionById(req.tx, idParam(req.params.id, 'bank transaction'))),
  route(contracts.bookBankTransaction, async (req) => bookBankTransaction(req, idParam(req.params.id, 'bank transaction'), req.body)),
];
