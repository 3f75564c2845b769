import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { BankAccountInput } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';

/** A vendor bank account as entered (BankAccountInput): IBAN checked with mod-97 (and country length), BIC by format. */

export interface BankAccount {
  iban: string;
  bic: string | null;
  name: string | null;
  description: string | null;
}

export function normalizeBankAccount(input: BankAccountInput): BankAccount {
  const iban = electronicFormatIBAN(input.iban) ?? '';
  if (!isValidIBAN(iban)) throw ruleInvalid(`"${input.iban}" is not a valid IBAN (country, length or check digits).`, '/iban');
  const bic = input.bic === undefined ? null : input.bic.replace(/\s+/g, '').toUpperCase();
  if (bic !== null && !isValidBIC(bic)) throw ruleInvalid(`"${input.bic}" is not a valid BIC.`, '/bic');
  return { iban, bic, name: input.name ?? null, description: input.description ?? null };
}
