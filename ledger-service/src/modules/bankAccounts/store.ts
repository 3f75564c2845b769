import type { Tx } from '../../db/knex.ts';
import type { BankAccount } from './rules.ts';

/** Vendor bank accounts (payment targets of bills flagged for the bank payment file). */
export async function vendorExists(tx: Tx, vendorId: number): Promise<boolean> {
  return Boolean(await tx('parties').where({ id: vendorId, vc: 'vendor' }).first('id'));
}

export async function listBankAccounts(tx: Tx, vendorId: number) {
  return tx('vendor_bank_accounts')
    .where({ party_id: vendorId })
    .orderBy('id')
    .select('id', 'party_id as vendor_id', 'iban', 'bic', 'name', 'description')
    .then((rows: Record<string, unknown>[]) =>
      rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null))),
    );
}

export async function createBankAccount(tx: Tx, companyId: number, vendorId: number, account: BankAccount): Promise<number> {
  const [row] = (await tx('vendor_bank_accounts')
    .insert({ company_id: companyId, party_id: vendorId, ...account })
    .returning('id')) as { id: number }[];
  return row!.id;
}
