import type { Db, Tx } from './knex.ts';
import { enterTenant } from './tenantTransaction.ts';
import { CHART_TEMPLATES, DEFAULT_CHART } from '../domain/chartTemplates.ts';
import { DATASET_PATTERN, DEFAULT_LANGUAGE, isLanguage, isRole, type Language, type Role } from '@ledger/shared';

import type { CompanySettings } from './tables.ts';

export type { CompanySettings };

export interface Company {
  id: number;
  dataset: string;
  name: string;
  base_currency: string;
  closed_until: string | null;
  ai_connections_enabled: boolean;
  settings: CompanySettings;
}

export async function findCompanyByDataset(db: Db | Tx, dataset: string): Promise<Company | undefined> {
  if (!DATASET_PATTERN.test(dataset)) return undefined;
  return db('companies').where({ dataset }).first();
}

export interface MembershipRow {
  company_id: number;
  user_id: number;
  role: Role;
  approval_limit: string | null;
  user_active: boolean;
}

export async function findMembership(
  db: Db | Tx,
  companyId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  if (!Number.isSafeInteger(userId)) return undefined;
  const row = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.company_id': companyId, 'm.user_id': userId })
    .first('m.company_id', 'm.user_id', 'm.role', 'm.approval_limit', 'u.active as user_active');
  return row && isRole(row.role) ? (row as MembershipRow) : undefined;
}

export class CompanyInputError extends Error {}

/** Creates a company with its chart of accounts and taxes from a template, in one transaction. */
export async function createCompany(
  db: Db,
  input: {
    dataset: string;
    name: string;
    currency?: string;
    chart?: string;
    /** the company's language (documents, e-mails) and its accounts' names; default de */
    language?: string;
    /** the accounts' names only, when they should differ from `language` (the tests' English chart) */
    accountLanguage?: Language;
  },
): Promise<Company> {
  if (!DATASET_PATTERN.test(input.dataset)) {
    throw new CompanyInputError(
      'dataset must be 2–63 characters: lowercase letters, digits, "-" or "_", starting with a letter or digit',
    );
  }
  const template = CHART_TEMPLATES[input.chart ?? DEFAULT_CHART];
  if (!template)
    throw new CompanyInputError(
      `unknown chart template "${input.chart}"; known: ${Object.keys(CHART_TEMPLATES).join(', ')}`,
    );
  const language = input.language ?? DEFAULT_LANGUAGE;
  if (!isLanguage(language)) throw new CompanyInputError(`language must be de, fr, it or en, got "${language}"`);
  const accountLanguage = input.accountLanguage ?? language;
  const currency = input.currency ?? 'CHF';
  if (!/^[A-Z]{3}$/.test(currency) || !Intl.supportedValuesOf('currency').includes(currency)) {
    throw new CompanyInputError(`currency must be an ISO 4217 code, got "${currency}"`);
  }
  return db.transaction(async (tx) => {
    if (await tx('companies').where({ dataset: input.dataset }).first()) {
      throw new CompanyInputError(`dataset "${input.dataset}" already exists`);
    }
    const settings: CompanySettings = {
      ap_account: template.defaults.ap,
      ar_account: template.defaults.ar,
      rounding_account: template.defaults.rounding,
      retained_earnings_account: template.defaults.retainedEarnings,
      fx_gain_loss_account: template.defaults.fxGainLoss,
      reminder_fee_account: template.defaults.reminderFee,
      bank_account: template.defaults.bank,
      vat_payable_account: template.defaults.vatPayable,
      net_tax_difference_account: template.defaults.netTaxDifference,
      chart_template: template.name,
      language,
    };
    const [company] = await tx('companies')
      .insert({ dataset: input.dataset, name: input.name, base_currency: currency, settings })
      .returning('*');
    await enterTenant(tx, company!.id);
    const accounts = await tx('accounts')
      .insert(
        template.accounts.map((a) => ({
          company_id: company!.id,
          accno: a.accno,
          description: a.names[accountLanguage],
          names: a.names,
          category: a.category,
          link: a.link.join(':'),
        })),
      )
      .returning(['id', 'accno']);
    const idOf = new Map(accounts.map((a) => [a.accno, a.id]));
    await tx('taxes').insert(
      template.taxes.map((t) => ({
        company_id: company!.id,
        account_id: idOf.get(t.accno),
        code: t.code,
        kind: t.kind,
        figure: t.figure,
        description: t.description,
        rate: t.rate,
        valid_from: t.validFrom,
        valid_to: t.validTo,
      })),
    );
    return company!;
  });
}

export async function addMember(
  db: Db,
  companyId: number,
  userId: number,
  role: string,
  approvalLimit: string | null,
): Promise<void> {
  if (!isRole(role))
    throw new CompanyInputError(`role must be one of owner, admin, accountant, clerk, viewer; got "${role}"`);
  await db('memberships')
    .insert({ company_id: companyId, user_id: userId, role, approval_limit: approvalLimit })
    .onConflict(['company_id', 'user_id'])
    .merge(['role', 'approval_limit']);
}

/** The company's closing date, read inside the current transaction. */
export async function closedUntil(tx: Tx, companyId: number): Promise<string | null> {
  const row = (await tx('companies').where({ id: companyId }).first(tx.raw('closed_until::text as closed_until'))) as
    | { closed_until: string | null }
    | undefined;
  return row?.closed_until ?? null;
}

/** The closing date under the company row's lock, and the one way to move it. */
export interface LockedClosingDate {
  /** the closing date when the lock was taken */
  previous: string | null;
  /** sets the closing date (the lock is held until the transaction ends) */
  moveTo(date: string): Promise<void>;
}

/**
 * Locks the company row and reads its closing date: every change of the closing date
 * (closing the books, closing a fiscal year) goes through here, so concurrent closings
 * queue on the row and each sees the date the other left.
 */
export async function lockClosingDate(tx: Tx, companyId: number): Promise<LockedClosingDate> {
  await tx('companies').where({ id: companyId }).forUpdate().first('id');
  const previous = await closedUntil(tx, companyId);
  return {
    previous,
    moveTo: async (date) => {
      await tx('companies').where({ id: companyId }).update({ closed_until: date });
    },
  };
}
