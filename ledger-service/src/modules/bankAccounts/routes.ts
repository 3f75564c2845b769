import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addVendorBankAccount, vendorBankAccounts } from './service.ts';

/** `GET/POST /arap/vendor/{id}/bank_accounts` */
export const bankAccountRoutes = [
  route(contracts.listVendorBankAccounts, async (req) => vendorBankAccounts(req.tx, idParam(req.params.id, 'vendor'))),
  route(contracts.createVendorBankAccount, async (req) => addVendorBankAccount(req, idParam(req.params.id, 'vendor'), req.body)),
];
