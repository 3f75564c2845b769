/**
 * Accounting area, the Swiss VAT return (REST `/reports/vat/returns`, docs/vat.md): prepare the
 * return of a period, read it with the lines behind a figure, settle it (a posting: the person
 * confirms it and sees the amount payable).
 */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { isRecord } from './isRecord.ts';
import { idOf } from './summaries.ts';

const payableOf = (result: unknown): string => {
  if (!isRecord(result) || typeof result.payable !== 'number') return '';
  const p = result.payable;
  return p >= 0 ? `, ${p.toFixed(2)} payable to the ESTV` : `, a credit of ${(-p).toFixed(2)} from the ESTV`;
};

export const vatTools: ToolDeclaration[] = [
  {
    name: 'prepare_vat_return',
    title: 'Prepare VAT return',
    description: 'Compute and freeze the VAT return of one VAT period (type correction: differences to the original).',
    area: 'accounting',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.prepareVatReturn,
    summary: (result, input) => `Prepared VAT return ${idOf(result, input)}${payableOf(result)}.`,
  },
  {
    name: 'get_vat_return',
    title: 'Get VAT return',
    description: 'A VAT return: form figures, amount payable; with figure (e.g. "303_tax") the lines behind it.',
    area: 'accounting',
    access: 'read',
    contract: contracts.getVatReturn,
    params: { id: 'VAT return id' },
    summary: (result, input) =>
      `VAT return ${idOf(result, input)}${isRecord(result) ? ` (${String(result.status)})` : ''}${payableOf(result)}.`,
  },
  {
    name: 'settle_vat_return',
    title: 'Settle VAT return',
    description: "Post the entry clearing the period's VAT accounts to the ESTV account; locks the period.",
    area: 'accounting',
    access: 'write',
    destructive: true,
    idempotent: false,
    contract: contracts.settleVatReturn,
    params: { id: 'VAT return id' },
    summary: (result, input) =>
      `Settled VAT return ${String(input.id)} by journal entry ` +
      `${isRecord(result) ? String(result.settlement_id) : '?'}${payableOf(result)}.`,
  },
];
