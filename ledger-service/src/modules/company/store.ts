import {
  DEFAULT_LANGUAGE,
  isLanguage,
  VAT_BASES,
  VAT_METHODS,
  VAT_PERIODS,
  type ResponseOf,
  type contracts,
} from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { fiscalCalendarOf, fiscalYearStartText } from '../../domain/fiscalYear.ts';
import type { CompaniesRow } from '../../db/tables.ts';
import { findBankAccount, type BankAccount } from '../bank/index.ts';
import { BOOK_ACCOUNT_FIELDS, type BookAccount, type BookAccountField } from './rules.ts';

/**
 * The company's settings: name and profile columns of `companies`, the accounts of the
 * books in `companies.settings` (the one place posting reads them from).
 * Runs inside a tenant transaction.
 */

/** The read shape of `GET /system/company`. */
export type CompanyProfile = ResponseOf<typeof contracts.getCompany>;

const PROFILE_COLUMNS = [
  'name',
  'street',
  'house_number',
  'zip',
  'city',
  'country',
  'vat_number',
  'email',
  'invoice_bank_account_id',
] as const;
type ProfileColumn = (typeof PROFILE_COLUMNS)[number];

/** The dunning levels kept in `settings.dunning` (validated when written); none when never set. */
function dunningOf(value: unknown): CompanyProfile['dunning'] {
  const levels = (value as { levels?: unknown } | undefined)?.levels;
  return { levels: Array.isArray(levels) ? (levels as CompanyProfile['dunning']['levels']) : [] };
}

/** The company's settings (for invoices, the PDF header and payment slip, reminders). */
export async function getCompanyProfile(tx: Tx, companyId: number): Promise<CompanyProfile> {
  const row = await tx('companies')
    .where({ id: companyId })
    .first([...PROFILE_COLUMNS, 'settings']);
  if (!row) throw new Error(`company ${companyId} not found`);
  const accounts = Object.fromEntries(
    BOOK_ACCOUNT_FIELDS.map((f) => [f, typeof row.settings[f] === 'string' ? row.settings[f] : null]),
  ) as Record<BookAccountField, string | null>;
  return {
    name: row.name,
    street: row.street,
    house_number: row.house_number,
    zip: row.zip,
    city: row.city,
    country: row.country?.trim() ?? null,
    vat_number: row.vat_number,
    email: row.email,
    invoice_bank_account_id: row.invoice_bank_account_id === null ? null : Number(row.invoice_bank_account_id),
    ...accounts,
    ...vatSettingsOf(row.settings),
    ai_may_post_without_confirmation: row.settings[AI_MAY_POST] === true,
    language: isLanguage(row.settings.language) ? row.settings.language : DEFAULT_LANGUAGE,
    dunning: dunningOf(row.settings.dunning),
    fiscal_year_start: fiscalYearStartText(fiscalCalendarOf(row.settings)),
    first_fiscal_year_end: fiscalCalendarOf(row.settings).firstEnd,
  };
}

type VatSettings = Pick<CompanyProfile, 'vat_method' | 'vat_basis' | 'vat_period' | 'net_tax_rates'>;

/** The VAT settings kept in `settings` (docs/vat.md "Company settings"), with their defaults when never set. */
export function vatSettingsOf(settings: Record<string, unknown>): VatSettings {
  const pick = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
    const value = settings[key];
    return allowed.find((a) => a === value) ?? fallback;
  };
  const rates = Array.isArray(settings.net_tax_rates) ? settings.net_tax_rates : [];
  return {
    vat_method: pick('vat_method', VAT_METHODS, 'effective'),
    vat_basis: pick('vat_basis', VAT_BASES, 'agreed'),
    vat_period: pick('vat_period', VAT_PERIODS, 'quarter'),
    net_tax_rates: rates.flatMap((r: unknown) =>
      r && typeof r === 'object' && 'rate' in r && 'description' in r
        ? [
            {
              rate: Number(r.rate),
              description: String(r.description),
              ...('activity_code' in r && typeof r.activity_code === 'string'
                ? { activity_code: r.activity_code }
                : {}),
              ...('accounts' in r && Array.isArray(r.accounts) ? { accounts: r.accounts.map(String) } : {}),
            },
          ]
        : [],
    ),
  };
}

/** The bank account the company's invoices name (QR-bill creditor account), or null when none is set. */
export async function getInvoiceBankAccount(tx: Tx, companyId: number): Promise<BankAccount | null> {
  const { invoice_bank_account_id: id } = await getCompanyProfile(tx, companyId);
  return id === null ? null : ((await findBankAccount(tx, companyId, id)) ?? null);
}

/** Locks the company's row for a read-modify-write of its settings. */
export async function lockCompany(tx: Tx, companyId: number): Promise<void> {
  await tx('companies').where({ id: companyId }).forUpdate().first('id');
}

/** The chart accounts among `accnos`, by accno. */
export async function bookAccounts(tx: Tx, companyId: number, accnos: string[]): Promise<Map<string, BookAccount>> {
  if (accnos.length === 0) return new Map();
  const rows = await tx('accounts')
    .where({ company_id: companyId })
    .whereIn('accno', accnos)
    .select('accno', 'category', 'link');
  return new Map(
    rows.map((r) => [
      r.accno,
      { accno: r.accno, category: r.category.trim(), links: r.link.split(':').filter(Boolean) },
    ]),
  );
}

/**
 * The AI-connection setting lives in `settings` beside the book accounts (a key of the JSON
 * column, absent = false): no column of its own, as nothing but the gateway's confirmation
 * rule reads it (GET /system/company as the connection).
 */
const AI_MAY_POST = 'ai_may_post_without_confirmation';

/**
 * Writes the complete settings: profile columns, the book accounts and the AI setting merged into `settings` (other
 * keys kept).
 */
export async function writeCompanyProfile(tx: Tx, companyId: number, profile: CompanyProfile): Promise<void> {
  const columns: Pick<CompaniesRow, ProfileColumn> = {
    name: profile.name,
    street: profile.street,
    house_number: profile.house_number,
    zip: profile.zip,
    city: profile.city,
    country: profile.country,
    vat_number: profile.vat_number,
    email: profile.email,
    invoice_bank_account_id: profile.invoice_bank_account_id,
  };
  const settings = {
    ...Object.fromEntries(BOOK_ACCOUNT_FIELDS.map((f) => [f, profile[f]])),
    vat_method: profile.vat_method,
    vat_basis: profile.vat_basis,
    vat_period: profile.vat_period,
    net_tax_rates: profile.net_tax_rates,
    [AI_MAY_POST]: profile.ai_may_post_without_confirmation,
    language: profile.language,
    dunning: profile.dunning,
    fiscal_year_start: profile.fiscal_year_start,
    first_fiscal_year_end: profile.first_fiscal_year_end,
  };
  await tx('companies')
    .where({ id: companyId })
    .update({ ...columns, settings: tx.raw('settings || ?::jsonb', [JSON.stringify(settings)]) });
}

/** The date of the company's first posted ledger line (where its first fiscal year begins), or null. */
export async function firstLineDate(tx: Tx, companyId: number): Promise<string | null> {
  const { rows } = await tx.raw<{ rows: { first: string | null }[] }>(
    `select min(date)::text as first from ledger_entries where company_id = ?`,
    [companyId],
  );
  return rows[0]?.first ?? null;
}

/** Whether any fiscal year of the company is closed (a closing entry in force). */
export async function hasClosedFiscalYear(tx: Tx, companyId: number): Promise<boolean> {
  const row = await tx('gl_transactions')
    .where({ company_id: companyId, closing: true, status: 'posted' })
    .whereNull('reversal_of_id')
    .first('id');
  return row !== undefined;
}
