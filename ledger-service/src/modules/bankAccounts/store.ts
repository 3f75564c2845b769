import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import type { BankAccount } from './rules.ts';

/** The read shape leaves out what is not set (bic, name, description). */
const withoutNulls = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));

/** Vendor bank accounts (payment targets of bills flagged for the bank payment file). */
export async function vendorExists(tx: Tx, companyId: number, vendorId: number): Promise<boolean> {
  return Boolean(await tx('parties').where({ company_id: companyId, id: vendorId, vc: 'vendor' }).first('id'));
}

/** One page of a vendor's bank accounts, oldest first (fields that are not set are left out). */
export async function listBankAccounts(
  tx: Tx,
  companyId: number,
  vendorId: number,
  page: { limit: number; offset: number },
): Promise<ListPage<Record<string, unknown>>> {
  const query = tx('vendor_bank_accounts').where({ company_id: companyId, party_id: vendorId });
  const counted = await query.clone().count({ n: '*' }).first();
  const rows = await query
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .select<Record<string, unknown>[]>('id', 'party_id as vendor_id', 'iban', 'bic', 'name', 'description');
  return { rows: rows.map(withoutNulls), total: Number(counted?.n ?? 0) };
}

export async function createBankAccount(
  tx: Tx,
  companyId: number,
  vendorId: number,
  account: BankAccount,
): Promise<number> {
  const [row] = await tx('vendor_bank_accounts')
    .insert({ company_id: companyId, party_id: vendorId, ...account })
    .returning('id');
  return row!.id;
}

/** A vendor's bank account as stored. */
export interface StoredBankAccount extends BankAccount {
  id: number;
  vendor_id: number;
}

const STORED_COLUMNS = ['id', 'party_id as vendor_id', 'iban', 'bic', 'name', 'description'];

/**
 * The vendor's bank account, locked for the change: a document write that names it (its
 * foreign key takes a share lock on this row) waits until the change is committed, so what
 * documentsNaming sees next stays true until then.
 */
export async function lockBankAccount(
  tx: Tx,
  companyId: number,
  vendorId: number,
  bankId: number,
): Promise<StoredBankAccount | undefined> {
  const row = await tx('vendor_bank_accounts')
    .where({ company_id: companyId, id: bankId, party_id: vendorId })
    .forUpdate()
    .first<StoredBankAccount | undefined>(STORED_COLUMNS);
  return row && { ...row, id: Number(row.id), vendor_id: Number(row.vendor_id) };
}

/**
 * The documents (transactions and invoices) naming the bank account, by status; locked against a concurrent approval.
 */
export async function documentsNaming(
  tx: Tx,
  companyId: number,
  bankId: number,
): Promise<{ drafts: string[]; booked: string[] }> {
  const rows = await tx('arap_transactions')
    .where({ company_id: companyId, vc_bank_id: bankId })
    .orderBy('id')
    .forShare()
    .select('inv_number', 'status');
  return {
    drafts: rows.filter((r) => r.status === 'draft').map((r) => r.inv_number),
    booked: rows.filter((r) => r.status !== 'draft').map((r) => r.inv_number),
  };
}

export async function updateBankAccount(
  tx: Tx,
  companyId: number,
  bankId: number,
  account: BankAccount,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await tx('vendor_bank_accounts')
    .where({ company_id: companyId, id: bankId })
    .update(account)
    .returning(STORED_COLUMNS);
  return row && withoutNulls(row);
}

export async function deleteBankAccount(tx: Tx, companyId: number, bankId: number): Promise<void> {
  await tx('vendor_bank_accounts').where({ company_id: companyId, id: bankId }).delete();
}
