import type { ResponseOf, contracts } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import type { LinkedAccount, ResolvedBankAccount } from './rules.ts';

/** The company's bank accounts (table bank_accounts). Runs inside a tenant transaction. */

/** The read shape of `GET /bank/accounts/{id}`. */
export type BankAccount = ResponseOf<typeof contracts.getBankAccount>;

interface BankAccountRow {
  id: number | string;
  name: string;
  iban: string;
  qr_iban: string | null;
  bic: string | null;
  currency: string;
  account: string;
}

const READ_COLUMNS = ['b.id', 'b.name', 'b.iban', 'b.qr_iban', 'b.bic', 'b.currency', 'a.accno as account'];

function toReadShape(r: BankAccountRow): BankAccount {
  // bigint ids come back as strings; char(3) may come back padded
  return {
    id: Number(r.id),
    name: r.name,
    iban: r.iban,
    qr_iban: r.qr_iban,
    bic: r.bic,
    currency: r.currency.trim(),
    account: r.account,
  };
}

function readQuery(tx: Tx, companyId: number) {
  return tx('bank_accounts as b')
    .join('accounts as a', (j) => j.on('a.id', 'b.account_id').andOn('a.company_id', 'b.company_id'))
    .where('b.company_id', companyId);
}

const BANK_ACCOUNT_ORDER = { name: 'lower(b.name)', id: 'b.id' };

export async function listBankAccounts(
  tx: Tx,
  companyId: number,
  q: { sort: string; limit: number; offset: number },
): Promise<ListPage<BankAccount>> {
  const counted = await tx('bank_accounts').where({ company_id: companyId }).count({ n: '*' }).first();
  const rows = await readQuery(tx, companyId)
    .orderByRaw(orderBySql(q.sort, BANK_ACCOUNT_ORDER, 'b.id'))
    .limit(q.limit)
    .offset(q.offset)
    .select<BankAccountRow[]>(READ_COLUMNS);
  return { rows: rows.map(toReadShape), total: Number(counted?.n ?? 0) };
}

/** One bank account of the company in the current tenant, or undefined. */
export async function findBankAccount(tx: Tx, companyId: number, id: number): Promise<BankAccount | undefined> {
  const row = await readQuery(tx, companyId).where('b.id', id).first<BankAccountRow | undefined>(READ_COLUMNS);
  return row && toReadShape(row);
}

/** A chart account with its links, for the account rule. */
export async function findChartAccount(tx: Tx, companyId: number, accno: string): Promise<LinkedAccount | undefined> {
  const row = await tx('accounts').where({ company_id: companyId, accno }).first('id', 'accno', 'link');
  return row && { id: Number(row.id), accno: row.accno, links: row.link.split(':').filter(Boolean) };
}

/** Which field names a value another bank account of the company has already (IBAN or QR-IBAN), if any. */
export async function takenBy(
  tx: Tx,
  companyId: number,
  account: Pick<ResolvedBankAccount, 'iban' | 'qr_iban'>,
  exceptId?: number,
): Promise<'/iban' | '/qr_iban' | undefined> {
  const values = [account.iban, ...(account.qr_iban ? [account.qr_iban] : [])];
  const q = tx('bank_accounts')
    .where({ company_id: companyId })
    .where((w) => w.whereIn('iban', values).orWhereIn('qr_iban', values));
  if (exceptId !== undefined) q.whereNot({ id: exceptId });
  const row = await q.first('iban', 'qr_iban');
  if (!row) return undefined;
  return row.iban === account.iban || row.qr_iban === account.iban ? '/iban' : '/qr_iban';
}

function columns(a: ResolvedBankAccount) {
  return { name: a.name, iban: a.iban, qr_iban: a.qr_iban, bic: a.bic, currency: a.currency, account_id: a.accountId };
}

export async function insertBankAccount(tx: Tx, companyId: number, account: ResolvedBankAccount): Promise<number> {
  const [row] = await tx('bank_accounts')
    .insert({ company_id: companyId, ...columns(account) })
    .returning('id');
  return Number(row!.id);
}

/** Locks the bank account's row (an update reads, checks and writes it under the lock); missing rows lock nothing. */
export async function lockBankAccount(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('bank_accounts').where({ company_id: companyId, id }).forUpdate().first('id');
}

export async function updateBankAccount(
  tx: Tx,
  companyId: number,
  id: number,
  account: ResolvedBankAccount,
): Promise<void> {
  await tx('bank_accounts')
    .where({ company_id: companyId, id })
    .update({ ...columns(account), updated_at: tx.fn.now() });
}

/** A bank account with its chart account's id, as the bank statement import and payment files need it. */
export interface BankAccountWithChart extends BankAccount {
  account_id: number;
}

/** A bank account's row with its chart account's id. */
type WithChartRow = BankAccountRow & { account_id: number | string };

/** The company's bank account whose IBAN or QR-IBAN this is (electronic format), or undefined. */
export async function findBankAccountByIban(
  tx: Tx,
  companyId: number,
  iban: string,
): Promise<BankAccountWithChart | undefined> {
  const row = await readQuery(tx, companyId)
    .where((w) => w.where('b.iban', iban).orWhere('b.qr_iban', iban))
    .first<WithChartRow | undefined>([...READ_COLUMNS, 'b.account_id']);
  return row && { ...toReadShape(row), account_id: Number(row.account_id) };
}

/** One bank account with its chart account's id, or undefined. */
export async function findBankAccountWithChart(
  tx: Tx,
  companyId: number,
  id: number,
): Promise<BankAccountWithChart | undefined> {
  const row = await readQuery(tx, companyId)
    .where('b.id', id)
    .first<WithChartRow | undefined>([...READ_COLUMNS, 'b.account_id']);
  return row && { ...toReadShape(row), account_id: Number(row.account_id) };
}

/**
 * What uses a bank account, in words (empty: nothing, it may be deleted): imported
 * transactions, payment files, statements, reconciliations, bank rules naming it, the
 * company's invoice bank account.
 */
export async function bankAccountUses(tx: Tx, companyId: number, id: number): Promise<string[]> {
  const { rows } = await tx.raw<{ rows: { what: string; n: string }[] }>(
    `select 'imported bank transactions' as what, count(*) as n from bank_transactions
      where company_id = ? and bank_account_id = ?
     union all select 'payment files', count(*) from payment_files where company_id = ? and bank_account_id = ?
     union all select 'statements', count(*) from bank_statements where company_id = ? and bank_account_id = ?
     union all select 'bank rules', count(*) from bank_rules
      where company_id = ? and conditions->>'bank_account_id' = ?::text
     union all select 'the company''s invoice bank account', count(*) from companies
      where id = ? and invoice_bank_account_id = ?`,
    [companyId, id, companyId, id, companyId, id, companyId, id, companyId, id],
  );
  return rows.filter((r) => Number(r.n) > 0).map((r) => (r.what.startsWith('the') ? r.what : `${r.n} ${r.what}`));
}

export async function deleteBankAccountRow(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('bank_accounts').where({ company_id: companyId, id }).delete();
}

/** What booked a bank line: a journal entry or a payment (each books at most one line). */
export type BankLineBooking = { journal_id: number } | { payment_id: number };

/**
 * The reconciled bank line (docs/bank.md "Reconciliation") a journal entry or payment booked, if
 * any.
 */
export async function reconciledBankLine(
  tx: Tx,
  companyId: number,
  booking: BankLineBooking,
): Promise<{ id: number; bank_account_id: number; reconciled_on: string } | undefined> {
  const row = await tx('bank_transactions')
    .where({ company_id: companyId, ...booking })
    .whereNotNull('reconciled_on')
    .first('id', 'bank_account_id', 'reconciled_on');
  return row && row.reconciled_on !== null
    ? { id: row.id, bank_account_id: row.bank_account_id, reconciled_on: row.reconciled_on }
    : undefined;
}
