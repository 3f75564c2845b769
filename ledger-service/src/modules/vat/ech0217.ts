import type { Decimal } from 'decimal.js';
import { Money } from '@ledger/shared';
import { conflict } from '../../domain/errors.ts';
import { netFigures, type NetTaxRate, type ReturnLine, type VatMethod } from './rules.ts';

/**
 * The VAT return as an eCH-0217 v2.0.0 `VATDeclaration` (docs/vat.md "Formats"), the file the
 * ESTV portal takes instead of typing the figures: general information (UID, period, type of
 * submission, form of reporting, business reference, sending application), the turnover
 * computation (200 and its deductions), the method's part (turnover per tax rate, input tax;
 * or turnover per approved net tax rate), the payable tax. Element names, order and types
 * follow the schema kept in ledger-service/schemas/ech/ (the tests validate against it).
 * Pure: the same return gives the same file apart from `generationTime`.
 */

export const ECH0217_NS = 'http://www.ech.ch/xmlns/eCH-0217/2';
const ECH0058_NS = 'http://www.ech.ch/xmlns/eCH-0058/5';

export interface Ech0217Input {
  id: number;
  from: string;
  to: string;
  type: 'original' | 'correction';
  basis: 'agreed' | 'received';
  method: VatMethod;
  figures: Readonly<Record<string, Decimal>>;
  payable: Decimal;
  netTaxRates: readonly NetTaxRate[];
  /** the return's lines (summed), for the turnover per tax rate */
  lines: readonly ReturnLine[];
  company: { name: string; vatNumber: string | null };
  generatedAt: Date;
  application: { manufacturer: string; product: string; version: string };
}

/**
 * The company's UID as eCH-0108 writes it (CHE and nine digits) from its VAT number as people
 * write it ("CHE-123.456.789 MWST"); 409 when it is not one.
 */
export function uidOf(vatNumber: string | null): string {
  const compact = (vatNumber ?? '').toUpperCase().replace(/[\s.-]/g, '');
  const uid = /^CHE([1-9]\d{8})(MWST|TVA|IVA)?$/.exec(compact);
  if (!uid) {
    throw conflict(
      `The eCH-0217 file needs the company's UID as its VAT number (vat_number, e.g. "CHE-123.456.789 MWST"); ` +
        `it is ${vatNumber === null ? 'not set' : `"${vatNumber}"`}. Set it with POST /system/company.`,
    );
  }
  return `CHE${uid[1]}`;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** xs:token with a length limit: collapsed whitespace, cut to `max` characters. */
const token = (s: string, max: number) => escapeXml(s.replace(/\s+/g, ' ').trim().slice(0, max));
const amount = (d: Decimal) => d.toFixed(2);
/** percentType: the rate in percent with two decimals (0.081 → 8.10). */
const percent = (rate: Decimal) => rate.times(100).toFixed(2);

/** Turnover per tax rate of the lines a figure part reads (sales of output codes, acquisitions). */
function perRate(lines: readonly ReturnLine[], pick: (l: ReturnLine) => boolean): [Decimal, Decimal][] {
  const byRate = new Map<string, [Decimal, Decimal]>();
  for (const l of lines) {
    if (!pick(l) || l.rate === null || l.rate.isZero()) continue;
    const key = l.rate.toFixed(6);
    const [rate, sum] = byRate.get(key) ?? [l.rate, new Money(0)];
    byRate.set(key, [rate, sum.plus(l.base)]);
  }
  return [...byRate.values()].filter(([, sum]) => !sum.isZero()).sort(([a], [b]) => b.comparedTo(a));
}

export function ech0217Xml(input: Ech0217Input): string {
  const f = (key: string) => input.figures[key] ?? new Money(0);
  const uid = uidOf(input.company.vatNumber);
  const out: string[] = [];
  const el = (indent: number, name: string, value: string) =>
    out.push(`${'  '.repeat(indent)}<eCH-0217:${name}>${value}</eCH-0217:${name}>`);
  const open = (indent: number, name: string) => out.push(`${'  '.repeat(indent)}<eCH-0217:${name}>`);
  const close = (indent: number, name: string) => out.push(`${'  '.repeat(indent)}</eCH-0217:${name}>`);
  /** an optional amount: written only when it is not zero */
  const optional = (indent: number, name: string, value: Decimal) => {
    if (!value.isZero()) el(indent, name, amount(value));
  };
  const rated = (indent: number, name: string, rate: Decimal, turnover: Decimal) => {
    open(indent, name);
    el(indent + 1, 'taxRate', percent(rate));
    el(indent + 1, 'turnover', amount(turnover));
    close(indent, name);
  };

  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(`<eCH-0217:VATDeclaration xmlns:eCH-0217="${ECH0217_NS}" xmlns:eCH-0058="${ECH0058_NS}">`);
  open(1, 'generalInformation');
  el(2, 'uid', uid);
  el(2, 'organisationName', token(input.company.name, 255));
  el(2, 'generationTime', input.generatedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  el(2, 'reportingPeriodFrom', input.from);
  el(2, 'reportingPeriodTill', input.to);
  // 1 first submission, 2 correction (3, the yearly reconciliation, is not prepared here)
  el(2, 'typeOfSubmission', input.type === 'original' ? '1' : '2');
  // 1 agreed, 2 received consideration
  el(2, 'formOfReporting', input.basis === 'agreed' ? '1' : '2');
  el(2, 'businessReferenceId', token(`VAT-${input.from}-${input.type === 'original' ? 'O' : 'C'}-${input.id}`, 50));
  open(2, 'sendingApplication');
  for (const [name, value, max] of [
    ['manufacturer', input.application.manufacturer, 30],
    ['product', input.application.product, 30],
    ['productVersion', input.application.version, 10],
  ] as const) {
    out.push(`      <eCH-0058:${name}>${token(value, max)}</eCH-0058:${name}>`);
  }
  close(2, 'sendingApplication');
  close(1, 'generalInformation');

  open(1, 'turnoverComputation');
  el(2, 'totalConsideration', amount(f('200')));
  optional(2, 'suppliesToForeignCountries', f('220'));
  optional(2, 'suppliesAbroad', f('221'));
  optional(2, 'suppliesExemptFromTax', f('230'));
  if (!f('280').isZero()) {
    open(2, 'variousDeduction');
    el(3, 'amountVariousDeduction', amount(f('280')));
    // the ledger's 280: sales lines without a tax code (docs/vat.md)
    el(3, 'descriptionVariousDeduction', 'Sales without a tax code');
    close(2, 'variousDeduction');
  }
  close(1, 'turnoverComputation');

  if (input.method === 'effective') {
    open(1, 'effectiveReportingMethod');
    // 1: the turnover is reported net of VAT
    el(2, 'grossOrNet', '1');
    const sale = (l: ReturnLine) => l.side === 'customer';
    for (const [rate, turnover] of perRate(input.lines, (l) => sale(l) && l.codeKind === 'output'))
      rated(2, 'suppliesPerTaxRate', rate, turnover);
    for (const [rate, turnover] of perRate(input.lines, (l) => l.codeKind === 'acquisition'))
      rated(2, 'acquisitionTax', rate, turnover);
    optional(2, 'inputTaxMaterialAndServices', f('400'));
    optional(2, 'inputTaxInvestments', f('405'));
    close(1, 'effectiveReportingMethod');
  } else {
    open(1, 'netTaxRateMethod');
    const figures = netFigures(input.from);
    input.netTaxRates.slice(0, 2).forEach((r, i) => {
      const turnover = f(figures[i]!);
      if (!turnover.isZero()) rated(2, 'suppliesPerTaxRate', new Money(r.rate), turnover);
    });
    close(1, 'netTaxRateMethod');
  }
  el(1, 'payableTax', amount(input.payable));
  out.push('</eCH-0217:VATDeclaration>');
  return `${out.join('\n')}\n`;
}
