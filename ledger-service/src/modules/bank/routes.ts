import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addBankAccount, bankAccountById, changeBankAccount, removeBankAccount } from './service.ts';
import { listBankAccounts } from './store.ts';

/** The company's bank accounts: `GET/POST /bank/accounts`, `GET/POST/DELETE /bank/accounts/{id}`. */
export const bankRoutes = [
  route(contracts.listBankAccounts, async (req) => listBankAccounts(req.tx, req.company.id, req.query)),
  route(contracts.getBankAccount, async (req) =>
    bankAccountById(req.tx, req.company.id, idParam(req.params.id, 'bank account')),
  ),
  route(contracts.createBankAccount, async (req) => addBankAccount(req, req.body)),
  route(contracts.updateBankAccount, async (req) =>
    changeBankAccount(req, idParam(req.params.id, 'bank account'), req.body),
  ),
  route(contracts.deleteBankAccount, async (req) => {
    await removeBankAccount(req, idParam(req.params.id, 'bank account'));
    return undefined;
  }),
];
