import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import type { ListPage } from '../../db/listOrder.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import type { BankAccountInput, BankAccountUpdate } from '@ledger/shared';
import { checkIbanChange, normalizeBankAccount, updatedBankAccount } from './rules.ts';
import {
  createBankAccount,
  deleteBankAccount,
  documentsNaming,
  listBankAccounts,
  lockBankAccount,
  updateBankAccount,
  vendorExists,
  type StoredBankAccount,
} from './store.ts';

async function requireVendor(tx: Tx, companyId: number, vendorId: number): Promise<void> {
  if (!(await vendorExists(tx, companyId, vendorId))) throw notFound(`No vendor with id ${vendorId}.`);
}

export async function vendorBankAccounts(
  tx: Tx,
  companyId: number,
  vendorId: number,
  page: { limit: number; offset: number },
): Promise<ListPage<Record<string, unknown>>> {
  await requireVendor(tx, companyId, vendorId);
  return listBankAccounts(tx, companyId, vendorId, page);
}

/** IBAN and BIC are checked and normalized (rules.ts) before anything is written; audited. */
export async function addVendorBankAccount(
  c: ServiceContext,
  vendorId: number,
  input: BankAccountInput,
): Promise<{ id: number }> {
  await requireVendor(c.tx, c.company.id, vendorId);
  const account = normalizeBankAccount(input);
  const id = await createBankAccount(c.tx, c.company.id, vendorId, account);
  await recordAudit(c.tx, c.company.id, c.actor, 'vendor_bank_account', id, 'create', {
    vendor_id: vendorId,
    iban: account.iban,
  });
  return { id };
}

/** The vendor's bank account, locked for a change; 404 when the vendor or its account does not exist. */
async function lockedAccount(tx: Tx, companyId: number, vendorId: number, bankId: number): Promise<StoredBankAccount> {
  await requireVendor(tx, companyId, vendorId);
  const account = await lockBankAccount(tx, companyId, vendorId, bankId);
  if (!account) throw notFound(`Vendor ${vendorId} has no bank account with id ${bankId}.`);
  return account;
}

/** Partial update (rules.ts: updatedBankAccount, checkIbanChange); audited with the fields that changed. */
export async function changeVendorBankAccount(
  c: ServiceContext,
  vendorId: number,
  bankId: number,
  input: BankAccountUpdate,
): Promise<Record<string, unknown>> {
  const current = await lockedAccount(c.tx, c.company.id, vendorId, bankId);
  const next = updatedBankAccount(current, input);
  checkIbanChange(current, next, (await documentsNaming(c.tx, c.company.id, bankId)).booked);
  const changed = (['iban', 'bic', 'name', 'description'] as const).filter((k) => next[k] !== current[k]);
  const read = (await updateBankAccount(c.tx, c.company.id, bankId, next))!;
  await recordAudit(c.tx, c.company.id, c.actor, 'vendor_bank_account', bankId, 'update', {
    vendor_id: vendorId,
    fields: changed,
    ...(changed.includes('iban') ? { iban: next.iban, previous_iban: current.iban } : {}),
  });
  return read;
}

/**
 * Only an account no document names can go: the documents' payee would be lost (payment
 * files keep their XML and name documents, not accounts). A draft that names it is changed
 * to another account (or none) first.
 */
export async function removeVendorBankAccount(c: ServiceContext, vendorId: number, bankId: number): Promise<void> {
  const current = await lockedAccount(c.tx, c.company.id, vendorId, bankId);
  const { drafts, booked } = await documentsNaming(c.tx, c.company.id, bankId);
  const naming = [...booked, ...drafts];
  if (naming.length > 0) {
    throw conflict(
      `Bank account ${bankId} is named by ${naming.length} document${naming.length === 1 ? '' : 's'} ` +
        `(${naming.slice(0, 5).join(', ')}${naming.length > 5 ? ', …' : ''}) and cannot be deleted.`,
    );
  }
  await deleteBankAccount(c.tx, c.company.id, bankId);
  await recordAudit(c.tx, c.company.id, c.actor, 'vendor_bank_account', bankId, 'delete', {
    vendor_id: vendorId,
    iban: current.iban,
  });
}
