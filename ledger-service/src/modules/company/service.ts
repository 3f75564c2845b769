import type { BodyOf, contracts } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { conflict, ruleInvalid } from '../../domain/errors.ts';
import { checkFiscalCalendar, fiscalCalendarOf } from '../../domain/fiscalYear.ts';
import { findBankAccount } from '../bank/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { BOOK_ACCOUNT_FIELDS, checkBookAccounts, checkDunningLevels, resolveVatNumber } from './rules.ts';
import {
  bookAccounts,
  firstLineDate,
  hasClosedFiscalYear,
  getCompanyProfile,
  lockCompany,
  writeCompanyProfile,
  type CompanyProfile,
} from './store.ts';

/**
 * Changes the fields sent (null clears an optional one) and answers the whole settings.
 * The VAT number is checked against the resulting country (Swiss UID for CH); the invoice
 * bank account must be one of the company's; accounts must exist and fit their use. Audited.
 */
export async function changeCompanyProfile(
  c: ServiceContext,
  input: BodyOf<typeof contracts.updateCompany>,
): Promise<CompanyProfile> {
  await lockCompany(c.tx, c.company.id);
  const current = await getCompanyProfile(c.tx, c.company.id);
  const next: CompanyProfile = { ...current, ...input };
  next.vat_number = resolveVatNumber(next.vat_number, next.country);

  if (input.invoice_bank_account_id !== undefined && input.invoice_bank_account_id !== null) {
    if (!(await findBankAccount(c.tx, c.company.id, input.invoice_bank_account_id))) {
      throw ruleInvalid(
        `No bank account with id ${input.invoice_bank_account_id} (see GET /bank/accounts).`,
        '/invoice_bank_account_id',
      );
    }
  }
  const named = Object.fromEntries(BOOK_ACCOUNT_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]));
  const accnos = Object.values(named).filter((a): a is string => typeof a === 'string');
  checkBookAccounts(named, await bookAccounts(c.tx, c.company.id, accnos));

  if (input.dunning) checkDunningLevels(input.dunning.levels);
  await checkFiscalYearChange(c, current, next);
  await writeCompanyProfile(c.tx, c.company.id, next);
  const changed = (Object.keys(input) as (keyof CompanyProfile)[]).filter(
    (k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]),
  );
  await recordAudit(c.tx, c.company.id, c.actor, 'company', c.company.id, 'update_settings', {
    fields: changed,
    ...Object.fromEntries(changed.map((k) => [k, next[k]])),
  });
  return getCompanyProfile(c.tx, c.company.id);
}

/**
 * A new fiscal-year shape must be one (first year ending the day before a fiscal_year_start, at
 * most 23 months from the first posted line) and may not move years already closed: once a
 * year is closed the shape stays (reopen the years first, POST /system/close_books).
 */
async function checkFiscalYearChange(c: ServiceContext, current: CompanyProfile, next: CompanyProfile) {
  if (
    next.fiscal_year_start === current.fiscal_year_start &&
    next.first_fiscal_year_end === current.first_fiscal_year_end
  )
    return;
  const cal = fiscalCalendarOf({
    fiscal_year_start: next.fiscal_year_start,
    first_fiscal_year_end: next.first_fiscal_year_end,
  });
  checkFiscalCalendar(cal, await firstLineDate(c.tx, c.company.id));
  if (await hasClosedFiscalYear(c.tx, c.company.id))
    throw conflict(
      'A fiscal year is closed: the fiscal years keep their shape until every closed year is reopened ' +
        '(POST /system/close_books with reopen).',
    );
}
