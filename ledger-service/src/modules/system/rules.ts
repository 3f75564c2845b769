import { CHART_LINKS, type ChartLink } from '@ledger/shared';
import { conflict } from '../../domain/errors.ts';

/** Pure rules of chart changes: what an account may become, given what it carries and what uses it. */

export interface AccountShape {
  accno: string;
  description: string;
  category: string;
  links: readonly string[];
}

/**
 * Links that say what an account's postings are: control accounts (their balance is the
 * open items of AR/AP documents and payments; journal entries may not book on them) and tax
 * accounts (the VAT report reads their movements). The others (AP_amount, AR_amount,
 * AP_paid, AR_paid) only decide which future lines and payments may use the account.
 */
export const MEANING_LINKS: readonly ChartLink[] = ['AR', 'AP', 'AR_tax', 'AP_tax'];

/** A use the company gives an account, and what the account must stay for it. */
export interface AccountUse {
  /** "the default payable account (company setting ap_account)" */
  what: string;
  /** "an account with link AP" */
  needs: string;
  fits(account: AccountShape): boolean;
}

/** The links as stored: SQL-Ledger's colon string in the canonical order of CHART_LINKS. */
export function linkString(links: readonly string[]): string {
  return CHART_LINKS.filter((l) => links.includes(l)).join(':');
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * An account that carries postings keeps what they mean: its category (where the balance
 * sheet and income statement show them) and its control and tax links. And it stays fit for
 * every use the company gives it. Either refusal is a 409 naming the field sent.
 */
export function checkAccountChange(
  before: AccountShape,
  after: AccountShape,
  posted: boolean,
  uses: readonly AccountUse[],
): void {
  if (posted && after.category !== before.category) {
    throw conflict(
      `Account ${before.accno} has postings: its category (${before.category}) cannot change, it decides where ` +
        `they are reported.`,
      '/category',
    );
  }
  const meaning = (links: readonly string[]) => MEANING_LINKS.filter((l) => links.includes(l));
  if (posted && !sameSet(meaning(before.links), meaning(after.links))) {
    throw conflict(
      `Account ${before.accno} has postings: its control and tax links ` +
        `(${meaning(before.links).join(', ') || 'none'}) cannot change, they decide what the postings are.`,
      '/links',
    );
  }
  const unfit = uses.find((u) => !u.fits(after));
  if (unfit) {
    const field =
      after.category !== before.category && unfit.fits({ ...after, category: before.category })
        ? '/category'
        : '/links';
    throw conflict(`Account ${before.accno} is ${unfit.what}, which needs ${unfit.needs}.`, field);
  }
}
