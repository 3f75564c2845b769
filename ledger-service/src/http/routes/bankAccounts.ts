import { bankAccountCreateSchema, bankAccountReadSchema, createdSchema } from '@ledger/shared';
import { createBankAccount, listBankAccounts, vendorExists } from '../../db/bankAccounts.ts';
import { recordAudit } from '../../db/audit.ts';
import { wholeList } from '../../db/listOrder.ts';
import { normalizeBankAccount, type BankAccountInput } from '../../domain/bankAccount.ts';
import { RuleError } from '../../domain/ruleError.ts';
import { ApiError } from '../errors.ts';
import type { RouteDef, RouteRequest } from '../route.ts';
import { idParam } from './params.ts';

async function vendorId(req: RouteRequest): Promise<number> {
  const id = idParam(req.params.id, 'vendor');
  if (!(await vendorExists(req.tx, id))) throw new ApiError('not_found', `No vendor with id ${id}.`);
  return id;
}

/** `GET/POST /arap/vendor/{id}/bank_accounts` */
export const bankAccountRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/arap/vendor/:id/bank_accounts',
    summary: "A vendor's bank accounts",
    response: { type: 'array', items: bankAccountReadSchema },
    list: true,
    handler: async (req) => wholeList(await listBankAccounts(req.tx, await vendorId(req))),
  },
  {
    method: 'POST',
    path: '/arap/vendor/:id/bank_accounts',
    summary: 'Add a bank account to a vendor (IBAN checked with mod-97, BIC by format)',
    body: bankAccountCreateSchema,
    status: 201,
    response: createdSchema,
    handler: async (req: RouteRequest<BankAccountInput>) => {
      const vendor = await vendorId(req);
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
    },
  },
];
