import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { BankAccountInput, BankAccountUpdate } from '@ledger/shared';
import { conflict, ruleInvalid } from '../../domain/errors.ts';

/**
 * A vendor bank account as entered (BankAccountInput): IBAN checked with mod-97 (and country length), BIC by format.
 */

export interface BankAccount {
  iban: string;
  bic: string | null;
  name: string | null;
  description: string | null;
}

export function normalizeBankAccount(input: BankAccountInput): BankAccount {
  const iban = electronicFormatIBAN(input.iban) ?? '';
  if (!isValidIBAN(iban))
    throw ruleInvalid(`"${input.iban}" is not a valid IBAN (country, length or check digits).`, '/iban');
  const bic = input.bic === undefined ? null : input.bic.replace(/\s+/g, '').toUpperCase();
  if (bic !== null && !isValidBIC(bic)) throw ruleInvalid(`"${input.bic}" is not a valid BIC.`, '/bic');
  return { iban, bic, name: input.name ?? null, description: input.description ?? null };
}

/**
 * The account after an update: the stored one with the fields sent (null clears bic, name
 * or description), checked and normalized as on create.
 */
export function updatedBankAccount(current: BankAccount, input: BankAccountUpdate): BankAccount {
  // sent: the new value (null clears); not sent: the stored one
  const pick = (sent: string | null | undefined, stored: string | null): string | undefined =>
    (sent === undefined ? stored : sent) ?? undefined;
  return normalizeBankAccount({
    iban: input.iban ?? current.iban,
    bic: pick(input.bic, current.bic),
    name: pick(input.name, current.name),
    description: pick(input.description, current.description),
  });
}

/**
 * The IBAN is where the bills booked to the account are paid (and what payment files made
 * from them name): it cannot change while a posted or reversed document names the account.
 * The vendor's new bank details are a new bank account; drafts follow a change (their
 * payment reference is checked again when they are saved or approved).
 */
export function checkIbanChange(current: BankAccount, next: BankAccount, booked: readonly string[]): void {
  if (next.iban === current.iban || booked.length === 0) return;
  throw conflict(
    `The IBAN of this bank account cannot change: booked documents are paid to it ` +
      `(${booked.slice(0, 5).join(', ')}${booked.length > 5 ? ', …' : ''}). Add the new IBAN as another bank ` +
      `account.`,
    '/iban',
  );
}
