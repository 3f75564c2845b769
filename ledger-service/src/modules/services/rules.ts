import { SERVICE_PRICE_DECIMALS, decimalPlaces } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';

/** Pure checks of a service write: the price's decimals and the links of its accounts. */

/** Which link an account field needs, and how a refusal names it. */
export const ACCOUNT_FIELDS = {
  income_account: { column: 'income_account_id', links: ['AR_amount'], what: 'a revenue account' },
  expense_account: { column: 'expense_account_id', links: ['AP_amount'], what: 'an expense account' },
  taxAccount: { column: 'tax_account_id', links: ['AR_tax', 'AP_tax'], what: 'a tax account' },
} as const;
export type AccountField = keyof typeof ACCOUNT_FIELDS;
export const ACCOUNT_FIELD_NAMES = Object.keys(ACCOUNT_FIELDS) as AccountField[];

export function checkPrice(price: number): void {
  if (decimalPlaces(price) > SERVICE_PRICE_DECIMALS) {
    throw ruleInvalid(`price has more than ${SERVICE_PRICE_DECIMALS} decimals.`, '/price');
  }
}

/** The id of the account named in `field`, refused when it is unknown or lacks the field's link. */
export function accountFor(
  field: AccountField,
  accno: string,
  account: { id: number; links: readonly string[] } | undefined,
): number {
  const rule = ACCOUNT_FIELDS[field];
  if (!account) throw ruleInvalid(`Account ${accno} is not in the chart of accounts.`, `/${field}`);
  if (!rule.links.some((l) => account.links.includes(l))) {
    throw ruleInvalid(`Account ${accno} is not ${rule.what} (link ${rule.links.join(' or ')}).`, `/${field}`);
  }
  return account.id;
}
