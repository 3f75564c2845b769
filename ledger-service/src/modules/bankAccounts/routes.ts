import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import {
  addVendorBankAccount,
  changeVendorBankAccount,
  removeVendorBankAccount,
  vendorBankAccounts,
} from './service.ts';

/** `GET/POST /arap/vendor/{id}/bank_accounts`, `POST/DELETE /arap/vendor/{id}/bank_accounts/{bankId}` */
export const bankAccountRoutes = [
  route(contracts.listVendorBankAccounts, async (req) =>
    vendorBankAccounts(req.tx, req.company.id, idParam(req.params.id, 'vendor'), req.query),
  ),
  route(contracts.createVendorBankAccount, async (req) =>
    addVendorBankAccount(req, idParam(req.params.id, 'vendor'), req.body),
  ),
  route(contracts.updateVendorBankAccount, async (req) =>
    changeVendorBankAccount(
      req,
      idParam(req.params.id, 'vendor'),
      idParam(req.params.bankId, 'bank account'),
      req.body,
    ),
  ),
  route(contracts.deleteVendorBankAccount, async (req) => {
    await removeVendorBankAccount(req, idParam(req.params.id, 'vendor'), idParam(req.params.bankId, 'bank account'));
    return undefined;
  }),
];
