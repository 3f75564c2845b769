import type { BodyOf, contracts } from '@ledger/shared';
import { Money } from '@ledger/shared/money';
import type { Decimal } from 'decimal.js';
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * The rules of bank rules, pure (docs/bank.md "Bank rules"): what a rule must say, whether it
 * matches a bank line, and what it would book for that line. Texts are compared as plain
 * case-insensitive "contains": a rule never holds a pattern someone could make slow or wrong.
 */

export type BankRuleInput = BodyOf<typeof contracts.createBankRule>;
export type RuleConditions = BankRuleInput['conditions'];
export type RuleAction = BankRuleInput['action'];
export type BookAction = Extract<RuleAction, { kind: 'book' }>;
export type SettleAction = Extract<RuleAction, { kind: 'settle' }>;

export interface BankRule {
  id: number;
  name: string;
  priority: number;
  auto: boolean;
  conditions: RuleConditions;
  action: RuleAction;
}

/** A bank line as the rules see it. */
export interface RuleLine {
  amount: Decimal;
  currency: string;
  bankAccountId: number;
  counterparty: string | null;
  iban: string | null;
  reference: string | null;
  text: string | null;
}

/** An open posted document a settle rule may settle. */
export interface SettleCandidate {
  id: number;
  vc: 'vendor' | 'customer';
  partyId: number;
  number: string;
  currency: string;
  open: Decimal;
  date: string;
}

export type RuleBooking =
  | {
      kind: 'book';
      amount: Decimal;
      account: string;
      tax: string | null;
      party_id: number | null;
      description: string | null;
      /** the dimensions of the booked line (the account side), null: unassigned */
      dimensions: Record<string, string> | null;
    }
  | {
      kind: 'settle';
      amount: Decimal;
      vc: 'vendor' | 'customer';
      party_id: number;
      document_id: number;
      document_number: string;
      open: Decimal;
      /** the line's amount (without sign) minus the open amount */
      difference: Decimal;
      difference_account: string;
    };

export const compactIban = (iban: string): string => iban.replace(/\s+/g, '').toUpperCase();

/** Refuses a rule that could not work: no condition that narrows it, a range upside down, a tax without party. */
export function checkRuleShape(input: BankRuleInput): void {
  const c = input.conditions;
  if (
    c.counterparty === undefined &&
    c.iban === undefined &&
    c.text === undefined &&
    c.amount_min === undefined &&
    c.amount_max === undefined
  ) {
    throw ruleInvalid(
      'A bank rule needs at least one condition of counterparty, iban, text, amount_min or amount_max: without one ' +
        'it would book every line.',
      '/conditions',
    );
  }
  if (c.amount_min !== undefined && c.amount_max !== undefined && c.amount_min > c.amount_max)
    throw ruleInvalid('amount_min is above amount_max.', '/conditions/amount_max');
  const a = input.action;
  if (a.kind === 'book') {
    if (a.tax !== undefined && a.party_id === undefined) {
      throw ruleInvalid(
        'A rule that books with a tax code needs party_id: the line becomes a posted document of that vendor or ' +
          'customer, which is what the VAT return counts.',
        '/action/party_id',
      );
    }
    if (a.party_id !== undefined && c.direction === undefined) {
      throw ruleInvalid(
        'A rule that books to a party needs conditions.direction: out for a vendor, in for a customer.',
        '/conditions/direction',
      );
    }
  } else if (c.direction !== undefined && c.direction !== (a.vc === 'customer' ? 'in' : 'out')) {
    throw ruleInvalid(
      `A settle rule for a ${a.vc} settles ${a.vc === 'customer' ? 'credits (in)' : 'debits (out)'}.`,
      '/conditions/direction',
    );
  }
}

/** The side a rule's party is on: a vendor pays out, a customer pays in. */
export function partySide(rule: Pick<BankRuleInput, 'conditions' | 'action'>): 'vendor' | 'customer' {
  if (rule.action.kind === 'settle') return rule.action.vc;
  return rule.conditions.direction === 'in' ? 'customer' : 'vendor';
}

const contains = (haystack: string | null, needle: string) =>
  haystack?.toLowerCase().includes(needle.toLowerCase()) ?? false;

/** True when every condition the rule gives holds for the line. */
export function ruleMatches(rule: Pick<BankRule, 'conditions' | 'action'>, line: RuleLine): boolean {
  const c = rule.conditions;
  const abs = line.amount.abs();
  if (line.amount.isZero()) return false;
  const direction = line.amount.isPositive() ? 'in' : 'out';
  if (c.direction !== undefined && c.direction !== direction) return false;
  if (rule.action.kind === 'settle' && direction !== (rule.action.vc === 'customer' ? 'in' : 'out')) return false;
  if (c.bank_account_id !== undefined && c.bank_account_id !== line.bankAccountId) return false;
  if (c.currency !== undefined && c.currency !== line.currency) return false;
  if (c.amount_min !== undefined && abs.lessThan(new Money(c.amount_min))) return false;
  if (c.amount_max !== undefined && abs.greaterThan(new Money(c.amount_max))) return false;
  if (c.counterparty !== undefined && !contains(line.counterparty, c.counterparty)) return false;
  if (c.iban !== undefined && (line.iban === null || compactIban(line.iban) !== compactIban(c.iban))) return false;
  if (c.text !== undefined && !contains(line.reference, c.text) && !contains(line.text, c.text)) return false;
  return true;
}

/**
 * The open document of the rule's party a settle rule settles with this line: same currency,
 * the line's amount within the tolerance of the open amount; the closest, then the oldest.
 */
export function settleTarget(
  action: SettleAction,
  line: RuleLine,
  candidates: readonly SettleCandidate[],
): SettleCandidate | undefined {
  const abs = line.amount.abs();
  let best: SettleCandidate | undefined;
  let bestDiff: Decimal | undefined;
  for (const d of candidates) {
    if (d.vc !== action.vc || d.partyId !== action.party_id || d.currency !== line.currency) continue;
    if (!d.open.isPositive() || d.open.isZero()) continue;
    const diff = abs.minus(d.open).abs();
    if (diff.greaterThan(d.open.times(action.tolerance_percent).dividedBy(100))) continue;
    if (bestDiff === undefined || diff.lessThan(bestDiff) || (diff.equals(bestDiff) && d.date < best!.date)) {
      best = d;
      bestDiff = diff;
    }
  }
  return best;
}

/** What the rule would book for the line, or null (a settle rule finding no document within its tolerance). */
export function bookingOf(
  rule: Pick<BankRule, 'action'>,
  line: RuleLine,
  candidates: readonly SettleCandidate[],
): RuleBooking | null {
  const a = rule.action;
  const amount = line.amount.abs();
  if (a.kind === 'book') {
    return {
      kind: 'book',
      amount,
      account: a.account,
      tax: a.tax ?? null,
      party_id: a.party_id ?? null,
      description: a.description ?? null,
      dimensions: a.dimensions && Object.keys(a.dimensions).length > 0 ? a.dimensions : null,
    };
  }
  const target = settleTarget(a, line, candidates);
  if (!target) return null;
  return {
    kind: 'settle',
    amount,
    vc: a.vc,
    party_id: a.party_id,
    document_id: target.id,
    document_number: target.number,
    open: target.open,
    difference: amount.minus(target.open),
    difference_account: a.difference_account,
  };
}

/** The first rule (in the given order) that matches the line and would book something, with its booking. */
export function firstRule(
  rules: readonly BankRule[],
  line: RuleLine,
  candidates: readonly SettleCandidate[],
): { rule: BankRule; booking: RuleBooking } | undefined {
  for (const rule of rules) {
    if (!ruleMatches(rule, line)) continue;
    const booking = bookingOf(rule, line, candidates);
    if (booking) return { rule, booking };
  }
  return undefined;
}

/** A booking as JSON (bankRuleBookingSchema): amounts as numbers. */
export function bookingJson(b: RuleBooking) {
  if (b.kind === 'book') return { ...b, amount: b.amount.toNumber() };
  return { ...b, amount: b.amount.toNumber(), open: b.open.toNumber(), difference: b.difference.toNumber() };
}
