import { differenceInCalendarDays, parseISO } from 'date-fns';
import { Money } from '@ledger/shared/money';
import type { Decimal } from 'decimal.js';
import { bookingJson, firstRule, type BankRule, type RuleLine, type SettleCandidate } from '../bankRules/index.ts';
import { numberTokens } from './rules.ts';

/**
 * Proposals for an unbooked bank line, pure (docs/bank.md "Proposals"): the open documents it
 * could pay, each scored by amount, reference, number in the text, name and date with the
 * reasons, and the first bank rule that would book it. Best first; accepting one books it
 * (service.ts, `{ proposal: <index> }`).
 */

/** An open posted document as the proposals look at it. */
export interface ProposalDocument extends SettleCandidate {
  qrReference: string | null;
  paymentReference: string | null;
  partyName: string;
}

export interface ProposalLine extends RuleLine {
  date: string;
  reversal: boolean;
}

export type Proposal =
  | {
      kind: 'document';
      document_id: number;
      document_number: string;
      vc: 'vendor' | 'customer';
      open: number;
      score: number;
      why: string[];
    }
  | { kind: 'rule'; rule_id: number; booking: ReturnType<typeof bookingJson>; score: number; why: string[] };

/** At most this many documents are proposed for a line. */
const MAX_DOCUMENTS = 3;
/** A document needs this much (an exact amount, its reference or its number) to be proposed at all. */
const MIN_SCORE = 35;
/** A rule that matches is a strong proposal: someone wrote it for lines like this. */
const RULE_SCORE = 80;
/** Within this share of the open amount the amount still scores (a fee taken, a discount deducted). */
const NEAR_AMOUNT = new Money('0.03');

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
const ignoredWords = new Set(['ag', 'gmbh', 'sa', 'sarl', 'sàrl', 'ltd', 'inc', 'und', 'the', 'und', 'cie']);

/** True when a significant word of the party's name appears in the counterparty's. */
function namesAlike(counterparty: string | null, party: string): boolean {
  if (counterparty === null) return false;
  const theirs = new Set(words(counterparty));
  return words(party).some((w) => !ignoredWords.has(w) && theirs.has(w));
}

const formatted = (d: Decimal) => d.toFixed(2);

/** The score of one document for a line and why, or null when it does not qualify. */
export function scoreDocument(line: ProposalLine, d: ProposalDocument): { score: number; why: string[] } | null {
  const side = line.amount.isPositive() ? 'customer' : 'vendor';
  if (d.vc !== side || d.currency !== line.currency || !d.open.isPositive() || d.open.isZero()) return null;
  const amount = line.amount.abs();
  let score = 0;
  const why: string[] = [];
  if (line.reference !== null && (line.reference === d.qrReference || line.reference === d.paymentReference)) {
    score += 45;
    why.push(`the reference ${line.reference} is the document's`);
  }
  if (line.text !== null && numberTokens(line.text).includes(d.number)) {
    score += 30;
    why.push(`the text names ${d.number}`);
  }
  if (amount.equals(d.open)) {
    score += 35;
    why.push(`the amount ${formatted(amount)} is the open amount`);
  } else if (amount.minus(d.open).abs().lessThanOrEqualTo(d.open.times(NEAR_AMOUNT))) {
    score += 15;
    why.push(`the amount ${formatted(amount)} is within 3 % of the open amount ${formatted(d.open)}`);
  }
  if (score < MIN_SCORE) return null;
  if (namesAlike(line.counterparty, d.partyName)) {
    score += 15;
    why.push(`the counterparty ${line.counterparty} is like ${d.partyName}`);
  }
  const days = differenceInCalendarDays(parseISO(line.date), parseISO(d.date));
  if (days >= 0 && days <= 90) {
    score += 5;
    why.push(`paid ${days} days after the document date`);
  }
  return { score: Math.min(score, 100), why };
}

/** Why a rule matched, in words: the conditions it checked. */
function ruleReasons(rule: BankRule): string[] {
  const c = rule.conditions;
  const said: string[] = [];
  if (c.counterparty !== undefined) said.push(`counterparty contains "${c.counterparty}"`);
  if (c.iban !== undefined) said.push(`IBAN is ${c.iban}`);
  if (c.text !== undefined) said.push(`text contains "${c.text}"`);
  if (c.amount_min !== undefined || c.amount_max !== undefined)
    said.push(`amount between ${c.amount_min ?? 0} and ${c.amount_max ?? '∞'}`);
  if (c.direction !== undefined) said.push(c.direction === 'in' ? 'money in' : 'money out');
  return [`bank rule "${rule.name}" matches: ${said.join(', ')}`];
}

/** The proposals for one unbooked line, best first (documents ranked by score, the rule's among them). */
export function proposalsFor(
  line: ProposalLine,
  documents: readonly ProposalDocument[],
  rules: readonly BankRule[],
): Proposal[] {
  if (line.amount.isZero() || line.reversal) return [];
  const scored: Proposal[] = [];
  for (const d of documents) {
    const s = scoreDocument(line, d);
    if (!s) continue;
    scored.push({
      kind: 'document',
      document_id: d.id,
      document_number: d.number,
      vc: d.vc,
      open: d.open.toNumber(),
      ...s,
    });
  }
  scored.sort(
    (a, b) => b.score - a.score || (a.kind === 'document' && b.kind === 'document' ? a.document_id - b.document_id : 0),
  );
  const out = scored.slice(0, MAX_DOCUMENTS);
  const hit = firstRule(rules, line, documents);
  if (hit) {
    out.push({
      kind: 'rule',
      rule_id: hit.rule.id,
      booking: bookingJson(hit.booking),
      score: RULE_SCORE,
      why: ruleReasons(hit.rule),
    });
  }
  // stable: on equal scores documents stay before the rule
  return out.sort((a, b) => b.score - a.score);
}
