import { accountNumberSchema } from '@ledger/shared';
import { ApiError } from './errors.ts';

/** A path id: a positive integer, else the resource cannot exist (404). */
export function idParam(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(id)) {
    throw new ApiError('not_found', `No ${what} with id ${raw ?? ''}.`);
  }
  return id;
}

const ACCOUNT_NUMBER = new RegExp(accountNumberSchema.pattern);

/** A path account number (`:accno`): written as the chart writes them, else no such account can exist (404). */
export function accnoParam(raw: string | undefined): string {
  if (!raw || raw.length > accountNumberSchema.maxLength || !ACCOUNT_NUMBER.test(raw)) {
    throw new ApiError('not_found', `No account ${raw ?? ''} in the chart.`);
  }
  return raw;
}
