import type { Knex } from 'knex';
import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';

/**
 * The chart of accounts and the tax rates, in their API shapes. Runs inside a tenant transaction,
 * and every query names its company as well (row-level security is the second line).
 */

export interface TaxRate {
  code: string;
  accno: string;
  /** a fraction: 0.081 is 8.1 % (a rate, not an amount, so a JSON number is exact enough) */
  rate: number;
  valid_from: string;
  valid_to: string | null;
  description: string;
}

export interface ChartAccount {
  accno: string;
  description: string;
  category: string;
  /** SQL-Ledger style, colon separated */
  link: string;
  links: string[];
  taxes: Omit<TaxRate, 'accno'>[];
}

interface Page {
  limit: number;
  offset: number;
}

const TAX_COLUMNS = ['t.code', 'a.accno', 't.rate', 't.valid_from', 't.valid_to', 't.description'];

function toTaxRate(r: {
  code: string;
  accno: string;
  rate: string;
  valid_from: string;
  valid_to: string | null;
  description: string;
}): TaxRate {
  return {
    code: r.code,
    accno: r.accno,
    rate: Number(r.rate),
    valid_from: r.valid_from,
    valid_to: r.valid_to,
    description: r.description,
  };
}

async function count(query: Knex.QueryBuilder): Promise<number> {
  const row = await query.clone().clearSelect().clearOrder().count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

interface AccountRow {
  accno: string;
  description: string;
  category: string;
  link: string;
}

/** Accounts in their read shape, each with the tax rates booked to it. */
async function withTaxes(tx: Tx, companyId: number, accounts: readonly AccountRow[]): Promise<ChartAccount[]> {
  const taxes = (
    await tx('taxes as t')
      .join('accounts as a', 'a.id', 't.account_id')
      .where({ 't.company_id': companyId, 'a.company_id': companyId })
      .whereIn(
        'a.accno',
        accounts.map((a) => a.accno),
      )
      .orderBy(['a.accno', 't.code', 't.valid_from', 't.id'])
      .select(TAX_COLUMNS)
  ).map(toTaxRate);
  return accounts.map((a) => ({
    accno: a.accno,
    description: a.description,
    category: a.category.trim(),
    link: a.link,
    links: a.link ? a.link.split(':') : [],
    taxes: taxes.filter((t) => t.accno === a.accno).map(({ accno: _accno, ...t }) => t),
  }));
}

/** One page of the chart, by account number, each account with the tax rates booked to it. */
export async function listAccounts(tx: Tx, companyId: number, page: Page): Promise<ListPage<ChartAccount>> {
  const accounts = await tx('accounts')
    .where({ company_id: companyId })
    .orderBy('accno')
    .limit(page.limit)
    .offset(page.offset)
    .select('accno', 'description', 'category', 'link');
  return {
    rows: await withTaxes(tx, companyId, accounts),
    total: await count(tx('accounts').where({ company_id: companyId })),
  };
}

/** One account in the read shape of the chart. */
export async function chartAccount(tx: Tx, companyId: number, accno: string): Promise<ChartAccount | undefined> {
  const row = await tx('accounts')
    .where({ company_id: companyId, accno })
    .first('accno', 'description', 'category', 'link');
  return row && (await withTaxes(tx, companyId, [row]))[0];
}

export interface StoredAccount extends AccountRow {
  id: number;
}

/**
 * The account, locked for a change: a posting that books on it (ledger_entries' foreign key
 * takes a key-share lock on this row) waits until the change is committed, and one that
 * already did has committed before the lock is granted, so accountUses sees its lines.
 */
export async function lockAccount(tx: Tx, companyId: number, accno: string): Promise<StoredAccount | undefined> {
  const row = await tx('accounts')
    .where({ company_id: companyId, accno })
    .forUpdate()
    .first('id', 'accno', 'description', 'category', 'link');
  return row && { ...row, id: Number(row.id), category: row.category.trim() };
}

export async function insertAccount(tx: Tx, companyId: number, account: AccountRow): Promise<number> {
  const [row] = await tx('accounts')
    .insert({ company_id: companyId, ...account })
    .returning('id');
  return Number(row!.id);
}

export async function updateAccount(
  tx: Tx,
  companyId: number,
  id: number,
  account: Omit<AccountRow, 'accno'>,
): Promise<void> {
  // a new name replaces the template's names in every language (reports' ?language= then show it)
  await tx('accounts')
    .where({ company_id: companyId, id })
    .update({
      ...account,
      names: tx.raw('case when description = ? then names else null end', [account.description]),
    });
}

/** What refers to an account besides the company settings: its postings and the records that book to it. */
export interface AccountReferences {
  /** ledger lines of any posted document, payment or journal entry */
  posted: boolean;
  taxRates: string[];
  /** names of the company bank accounts it books */
  bankAccounts: string[];
  /** partnumbers of the services naming it, by use */
  services: { income: string[]; expense: string[]; tax: string[] };
}

export async function accountReferences(tx: Tx, companyId: number, accountId: number): Promise<AccountReferences> {
  const own = { company_id: companyId };
  const posted = await tx('ledger_entries')
    .where({ ...own, account_id: accountId })
    .first(tx.raw('1 as x'));
  const taxRates = await tx('taxes')
    .where({ ...own, account_id: accountId })
    .distinct('code')
    .orderBy('code');
  const banks = await tx('bank_accounts')
    .where({ ...own, account_id: accountId })
    .orderBy('id')
    .select('name');
  const services = await tx('services')
    .where(own)
    .andWhere((q) =>
      q
        .where({ income_account_id: accountId })
        .orWhere({ expense_account_id: accountId })
        .orWhere({ tax_account_id: accountId }),
    )
    .orderBy('partnumber')
    .select('partnumber', 'income_account_id', 'expense_account_id', 'tax_account_id');
  const naming = (column: 'income_account_id' | 'expense_account_id' | 'tax_account_id') =>
    services.filter((r) => r[column] !== null && Number(r[column]) === accountId).map((r) => r.partnumber);
  return {
    posted: posted !== undefined,
    taxRates: taxRates.map((r) => r.code),
    bankAccounts: banks.map((b) => b.name),
    services: {
      income: naming('income_account_id'),
      expense: naming('expense_account_id'),
      tax: naming('tax_account_id'),
    },
  };
}
