import { contracts } from '@ledger/shared';
import { createBankAccount, listBankAccounts, vendorExists } from './store.ts';
import { recordAudit } from '../../db/audit.ts';
import { wholeList } from '../../db/listOrder.ts';
import type { Tx } from '../../db/knex.ts';
import { normalizeBankAccount } from './rules.ts';
import { RuleError } from '../../domain/errors.ts';
import { ApiError } from '../../kernel/errors.ts';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';

async function vendorId(tx: Tx, raw: string): Promise<number> {
  const id = idParam(raw, 'vendor');
  if (!(await vendorExists(tx, id))) throw new ApiError('not_found', `No vendor with id ${id}.`);
  return id;
}

/** `GET/POST /arap/vendor/{id}/bank_accounts` */
export const bankAccountRoutes = [
  route(contracts.listVendorBankAccounts, async (req) => wholeList(await listBankAccounts(req.tx, await vendorId(req.tx, req.params.id)))),
  route(contracts.createVendorBankAccount, async (req) => {
    const vendor = await vendorId(req.tx, req.params.id);
    let account;
    try {
      account = normalizeBankAccount(req.body);
    } catch (e) {
      if (e instanceof RuleError) throw new ApiError(e.code, e.message, e.field);
      throw e;
    }
    const id = await createBankAccount(req.tx, req.company.id, vendor, account);
    await recordAudit(req.tx, req.company.id, req.actor, 'vendor_bank_account', id, 'create', { vendor_id: vendor, iban: account.iban });
    return { id };
  }),
];
