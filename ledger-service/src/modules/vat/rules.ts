import type { Decimal } from 'decimal.js';
import { Money, roundTo } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * Pure rules of the VAT return (docs/vat.md): the period bounds of the company's vat_period,
 * the form's figures from the frozen lines by method, which lines make up a figure, and the
 * settling entry. Figures and lines in the base currency.
 */

export type VatPeriod = 'month' | 'quarter' | 'half_year' | 'year';
export type VatMethod = 'effective' | 'net_tax';

const MONTHS: Record<VatPeriod, number> = { month: 1, quarter: 3, half_year: 6, year: 12 };

function lastDayOf(year: number, month: number): string {
  const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The bounds of the company's VAT period that contains `date`. */
export function periodContaining(date: string, period: VatPeriod): { from: string; to: string } {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const length = MONTHS[period];
  const first = Math.floor((month - 1) / length) * length + 1;
  return { from: `${year}-${String(first).padStart(2, '0')}-01`, to: lastDayOf(year, first + length - 1) };
}

/** `from`–`to` must be one of the company's VAT periods (400 naming the expected bounds otherwise). */
export function checkPeriod(from: string, to: string, period: VatPeriod): void {
  const expected = periodContaining(from, period);
  if (expected.from !== from || expected.to !== to) {
    throw ruleInvalid(
      `The company files VAT by ${period.replace('_', ' ')}: the period containing ${from} runs from ` +
        `${expected.from} to ${expected.to}.`,
      expected.from !== from ? '/from' : '/to',
    );
  }
}

/** One frozen line of a return (vat_return_lines), amounts as decimals. */
export interface ReturnLine {
  side: 'customer' | 'vendor' | 'ledger';
  kind: string;
  sourceId: number;
  number: string | null;
  date: string;
  code: string | null;
  codeKind: string | null;
  figure: string | null;
  taxAccno: string | null;
  revenueAccno: string | null;
  base: Decimal;
  tax: Decimal;
  /** the code's rate on the document's date (0.081 for 8.1 %); null without a code */
  rate: Decimal | null;
}

export interface NetTaxRate {
  rate: number;
  description: string;
  activity_code?: string;
  accounts?: string[];
}

const ZERO_FIGURES = ['220', '221', '230'] as const;
// the rates valid to 2023-12-31 (302 …) and from 2024-01-01 (303 …) have figures of their own
const RATE_FIGURES = ['302', '303', '312', '313', '342', '343', '382', '383'] as const;
/**
 * The net tax rates' figures: 322/332 for rates approved before the 2024 rates, 323/333 for
 * the rates valid from 2024-01-01 (ESTV, "Deklaration" of net tax rates); a return takes them
 * by its period.
 */
export function netFigures(from: string): readonly [string, string] {
  return from < '2024-01-01' ? ['322', '332'] : ['323', '333'];
}
const INPUT_FIGURES = ['400', '405'] as const;

/** How a line of a figure is counted: which column, and with which sign. */
interface Member {
  line: ReturnLine;
  column: 'base' | 'tax';
  amount: Decimal;
}

const isSale = (l: ReturnLine) => l.side === 'customer';
const isOutputTax = (l: ReturnLine) => l.codeKind === 'output' || l.codeKind === 'acquisition';
const isInputTax = (l: ReturnLine) => l.codeKind === 'input';
const isZero = (l: ReturnLine) => l.codeKind === 'zero';
const untaxedSale = (l: ReturnLine) => isSale(l) && (l.codeKind === null || isZero(l));

/** The net-tax rate a sales line falls under: the second when it lists the line's revenue account, else the first. */
export function netRateIndex(line: ReturnLine, rates: readonly NetTaxRate[]): number {
  const second = rates[1];
  return second?.accounts?.includes(line.revenueAccno ?? '') ? 1 : 0;
}

/** The figure's lines: which lines of the return make it up, counted as they sum to it. */
function membersOf(
  figure: string,
  lines: readonly ReturnLine[],
  method: VatMethod,
  rates: readonly NetTaxRate[],
  from: string,
) {
  const base = (pick: (l: ReturnLine) => boolean): Member[] =>
    lines.filter(pick).map((line) => ({ line, column: 'base', amount: line.base }));
  const tax = (pick: (l: ReturnLine) => boolean, sign = 1): Member[] =>
    lines.filter(pick).map((line) => ({ line, column: 'tax', amount: line.tax.times(sign) }));
  // net tax: turnover is counted with its tax (gross)
  const gross = (pick: (l: ReturnLine) => boolean): Member[] =>
    lines.filter(pick).map((line) => ({ line, column: 'base', amount: line.base.plus(line.tax) }));
  const turnover = method === 'net_tax' ? gross : base;
  if (figure === '200') return turnover(isSale);
  if ((ZERO_FIGURES as readonly string[]).includes(figure))
    return turnover((l) => isSale(l) && isZero(l) && l.figure === figure);
  if (figure === '280') return turnover((l) => isSale(l) && l.codeKind === null);
  if (figure === '289') return turnover(untaxedSale);
  if (figure === '299') return turnover((l) => isSale(l) && !untaxedSale(l));
  if (method === 'effective') {
    for (const f of RATE_FIGURES) {
      if (figure === f) return base((l) => isSale(l) && isOutputTax(l) && l.figure === f);
      if (figure === `${f}_tax`) return tax((l) => isOutputTax(l) && l.figure === f);
    }
    if (figure === '399') return tax(isOutputTax);
    for (const f of INPUT_FIGURES) if (figure === f) return tax((l) => isInputTax(l) && l.figure === f);
    if (figure === '479') return tax(isInputTax);
    return undefined;
  }
  for (const [i, f] of netFigures(from).entries()) {
    if (i >= Math.max(rates.length, 1)) break;
    if (figure === f) return gross((l) => isSale(l) && isOutputTax(l) && netRateIndex(l, rates) === i);
  }
  return undefined;
}

/** The figure keys a return of the method has, in form order. */
export function figureKeys(method: VatMethod, rates: readonly NetTaxRate[], from: string): string[] {
  const head = ['200', ...ZERO_FIGURES, '280', '289', '299'];
  if (method === 'effective')
    return [...head, ...RATE_FIGURES.flatMap((f) => [f, `${f}_tax`]), '399', ...INPUT_FIGURES, '479', '500', '510'];
  const net = netFigures(from)
    .slice(0, Math.max(rates.length, 1))
    .flatMap((f) => [f, `${f}_tax`]);
  return [...head, ...net, '399', '500', '510'];
}

const sumOf = (members: readonly Member[]) => members.reduce((s, m) => s.plus(m.amount), new Money(0));

/**
 * Net tax: the tax of a net-tax figure is its gross turnover × the approved rate, rounded to
 * the cent; its lines carry their share (each gross × rate, rounded, the rounding remainder
 * on the largest line), so they sum to it exactly.
 */
function netTaxMembers(
  figure: string,
  lines: readonly ReturnLine[],
  rates: readonly NetTaxRate[],
  currency: string,
  from: string,
) {
  const turnover = membersOf(figure, lines, 'net_tax', rates, from) ?? [];
  const rate = new Money(rates[netFigures(from).indexOf(figure)]?.rate ?? 0);
  const total = roundTo(sumOf(turnover).times(rate), currency);
  const members: Member[] = turnover.map((m) => ({
    line: m.line,
    column: 'tax',
    amount: roundTo(m.amount.times(rate), currency),
  }));
  const remainder = total.minus(sumOf(members));
  if (!remainder.isZero() && members.length > 0) {
    const largest = members.reduce((a, b) => (b.amount.abs().greaterThan(a.amount.abs()) ? b : a));
    largest.amount = largest.amount.plus(remainder);
  }
  return members;
}

/** The lines of one figure, or undefined when the return has no such figure. */
export function figureMembers(
  figure: string,
  lines: readonly ReturnLine[],
  method: VatMethod,
  rates: readonly NetTaxRate[],
  currency: string,
  from: string,
): Member[] | undefined {
  if (!figureKeys(method, rates, from).includes(figure)) return undefined;
  if (method === 'net_tax') {
    const figures = netFigures(from);
    const netTax = figures
      .slice(0, Math.max(rates.length, 1))
      .map((f) => netTaxMembers(f, lines, rates, currency, from));
    if (figure.endsWith('_tax')) return netTax[figures.indexOf(figure.slice(0, 3))];
    if (figure === '399') return netTax.flat();
  }
  if (figure === '500' || figure === '510') {
    const all =
      method === 'net_tax'
        ? (figureMembers('399', lines, method, rates, currency, from) ?? [])
        : [...(membersOf('399', lines, method, rates, from) ?? []), ...tax(lines, isInputTax, -1)];
    const payable = sumOf(all);
    const owed = figure === '500' ? payable.greaterThan(0) : payable.lessThan(0);
    if (!owed) return [];
    return figure === '500' ? all : all.map((m) => ({ ...m, amount: m.amount.negated() }));
  }
  return membersOf(figure, lines, method, rates, from);
}

function tax(lines: readonly ReturnLine[], pick: (l: ReturnLine) => boolean, sign: number): Member[] {
  return lines.filter(pick).map((line) => ({ line, column: 'tax', amount: line.tax.times(sign) }));
}

/** Every figure of the return, as exact decimals, and the amount payable (negative: a credit). */
export function computeFigures(
  lines: readonly ReturnLine[],
  method: VatMethod,
  rates: readonly NetTaxRate[],
  currency: string,
  from: string,
): { figures: Record<string, Decimal>; payable: Decimal } {
  const figures: Record<string, Decimal> = {};
  for (const key of figureKeys(method, rates, from)) {
    figures[key] = sumOf(figureMembers(key, lines, method, rates, currency, from) ?? []);
  }
  const payable = method === 'net_tax' ? figures['399']! : figures['399']!.minus(figures['479'] ?? new Money(0));
  return { figures, payable };
}

/** A line of the settling entry: an account and its amount (debit positive). */
export interface SettlementLine {
  accno: string;
  amount: Decimal;
}

/**
 * The settling entry (docs/vat.md "Settlement"): every tax account the return's lines booked is
 * cleared by its movement in the period; the tax payable goes to the ESTV clearing account (a
 * credit when payable), and with the net tax method the difference between the tax booked and
 * the tax owed to the net-tax difference account. Balanced by construction.
 */
export function settlementLines(
  lines: readonly ReturnLine[],
  payable: Decimal,
  method: VatMethod,
  accounts: { payable: string; difference: string | null },
): SettlementLine[] {
  const byAccount = new Map<string, Decimal>();
  for (const l of lines) {
    if (l.taxAccno === null || l.tax.isZero()) continue;
    // output tax was credited (the line's tax is shown positive): clearing debits it; input tax the other way
    const clearing = isInputTax(l) ? l.tax.negated() : l.tax;
    byAccount.set(l.taxAccno, (byAccount.get(l.taxAccno) ?? new Money(0)).plus(clearing));
  }
  const out: SettlementLine[] = [...byAccount.entries()]
    .filter(([, amount]) => !amount.isZero())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([accno, amount]) => ({ accno, amount }));
  out.push({ accno: accounts.payable, amount: payable.negated() });
  const rest = out.reduce((s, l) => s.plus(l.amount), new Money(0));
  if (!rest.isZero()) {
    if (method !== 'net_tax' || accounts.difference === null) {
      throw ruleInvalid(
        'The company has no net_tax_difference_account for the difference between the tax booked and the tax owed; ' +
          'set it with POST /system/company.',
      );
    }
    out.push({ accno: accounts.difference, amount: rest.negated() });
  }
  return out.filter((l) => !l.amount.isZero());
}
