import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import { wholeList, type ListPage } from '../../db/listOrder.ts';
import { notFound } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import type { BankAccountInput } from '@ledger/shared';
import { normalizeBankAccount } from './rules.ts';
import { createBankAccount, listBankAccounts, vendorExists } from './store.ts';

async function requireVendor(tx: Tx, vendorId: number): Promise<void> {
  if (!(await vendorExists(tx, vendorId))) throw notFound(`No vendor with id ${vendorId}.`);
}

export async function vendorBankAccounts(tx: Tx, vendorId: number): Promise<ListPage<Record<string, unknown>>> {
  await requireVendor(tx, vendorId);
  return wholeList(await listBankAccounts(tx, vendorId));
}

/** IBAN and BIC are checked and normalized (rules.ts) before anything is written; audited. */
export async function addVendorBankAccount(c: ServiceContext, vendorId: number, input: BankAccountInput): Promise<{ id: number }> {
  await requireVendor(c.tx, vendorId);
  const account = normalizeBankAccount(input);
  const id = await createBankAccount(c.tx, c.company.id, vendorId, account);
  await recordAudit(c.tx, c.company.id, c.actor, 'vendor_bank_account', id, 'create', { vendor_id: vendorId, iban: account.iban });
  return { id };
}
