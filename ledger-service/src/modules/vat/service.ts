import type { Decimal } from 'decimal.js';
import { amountJson, minorUnits, Money, type ResponseOf, type contracts } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import type { VatReturnsRow } from '../../db/tables.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { getCompanyProfile, vatSettingsOf } from '../company/index.ts';
import { postEntry, type JournalLineRow } from '../journal/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { ech0217Xml } from './ech0217.ts';
import { vatReturnPdf } from './pdf.ts';
import {
  checkPeriod,
  computeFigures,
  figureMembers,
  settlementLines,
  type NetTaxRate,
  type VatMethod,
} from './rules.ts';
import {
  accountIds,
  allowSettlementPosting,
  collectLines,
  copyNegated,
  deleteReturnRow,
  endSettlementPosting,
  findOriginal,
  findReturn,
  insertReturn,
  listReturns,
  markSettled,
  returnLines,
  returnLineSums,
  writeFigures,
} from './store.ts';

/**
 * The VAT return's workflow (docs/vat.md): prepare (lines collected and frozen, figures
 * computed from them by the company's method), read, drill down, settle (one journal entry,
 * after which the period is locked), delete a draft.
 */

export type VatReturnRead = ResponseOf<typeof contracts.getVatReturn>;

function readShape(row: VatReturnsRow): VatReturnRead {
  return {
    id: Number(row.id),
    from: row.from_date,
    to: row.to_date,
    type: row.type,
    method: row.method,
    basis: row.basis,
    status: row.status,
    currency: row.currency.trim(),
    figures: Object.fromEntries(Object.entries(row.figures).map(([k, v]) => [k, Number(v)])),
    payable: Number(row.payable),
    settlement_id: row.settlement_id === null ? null : Number(row.settlement_id),
    created_at: row.created_at.toISOString(),
  };
}

async function loadReturn(c: ServiceContext, id: number, lock = false): Promise<VatReturnsRow> {
  const row = await findReturn(c.tx, c.company.id, id, lock);
  if (!row) throw notFound(`No VAT return with id ${id}.`);
  return row;
}

const decimals = (figures: Record<string, Decimal>, currency: string) =>
  Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.toFixed(minorUnits(currency))]));

export async function prepareReturn(
  c: ServiceContext,
  input: { from: string; to: string; type?: 'original' | 'correction' },
): Promise<VatReturnRead> {
  const settings = vatSettingsOf(c.company.settings);
  if (settings.vat_method === 'none')
    throw ruleInvalid('The company is not registered for VAT (vat_method none); set vat_method first.');
  const method: VatMethod = settings.vat_method;
  if (method === 'net_tax' && settings.net_tax_rates.length === 0)
    throw ruleInvalid('The net tax rate method needs the approved net_tax_rates in the company settings.');
  checkPeriod(input.from, input.to, settings.vat_period);
  const type = input.type ?? 'original';
  const original = await findOriginal(c.tx, c.company.id, input.from);
  if (type === 'original' && original)
    throw conflict(`The period ${input.from} to ${input.to} already has its original VAT return (${original.id}).`);
  if (type === 'correction' && !original)
    throw conflict(`The period ${input.from} to ${input.to} has no original VAT return to correct.`, '/type');
  const currency = c.company.base_currency.trim();
  const rates: NetTaxRate[] = method === 'net_tax' ? settings.net_tax_rates : [];
  const id = await insertReturn(c.tx, {
    company_id: c.company.id,
    from_date: input.from,
    to_date: input.to,
    type,
    method,
    basis: settings.vat_basis,
    status: 'draft',
    currency,
    figures: {},
    payable: '0',
    net_tax_rates: rates,
    created_by: c.actor.userId,
  });
  await collectLines(
    c.tx,
    c.company.id,
    id,
    { ...input, basis: settings.vat_basis },
    { currency, scale: minorUnits(currency) },
  );
  if (original && type === 'correction') await copyNegated(c.tx, c.company.id, Number(original.id), id);
  const { figures, payable } = computeFigures(
    await returnLineSums(c.tx, c.company.id, id),
    method,
    rates,
    currency,
    input.from,
  );
  await writeFigures(c.tx, c.company.id, id, decimals(figures, currency), payable.toFixed(minorUnits(currency)));
  await recordAudit(c.tx, c.company.id, c.actor, 'vat_return', id, 'prepare', {
    from: input.from,
    to: input.to,
    type,
    payable: payable.toFixed(2),
  });
  return readShape(await loadReturn(c, id));
}

export async function vatReturn(c: ServiceContext, id: number): Promise<VatReturnRead> {
  return readShape(await loadReturn(c, id));
}

export async function vatReturnPage(c: ServiceContext, page: { limit: number; offset: number }) {
  const { rows, total } = await listReturns(c.tx, c.company.id, page);
  return { rows: rows.map(readShape), total };
}

/** The lines behind one figure: they sum to it exactly (the figure was computed from the same frozen lines). */
export async function figureLines(c: ServiceContext, id: number, figure: string) {
  const row = await loadReturn(c, id);
  const currency = row.currency.trim();
  const lines = await returnLines(c.tx, c.company.id, id);
  const members = figureMembers(figure, lines, row.method, row.net_tax_rates, currency, row.from_date);
  if (!members) throw notFound(`The VAT return ${id} has no figure ${figure}.`);
  const total = members.reduce((s, m) => s.plus(m.amount), new Money(0));
  return {
    figure,
    total: amountJson(total, currency),
    column: members[0]?.column ?? (figure.endsWith('_tax') || Number(figure) >= 399 ? 'tax' : 'base'),
    lines: members.map((m) => ({
      kind: m.line.kind,
      id: m.line.sourceId,
      number: m.line.number,
      date: m.line.date,
      code: m.line.code,
      base: amountJson(m.column === 'base' ? m.amount : m.line.base, currency),
      tax: amountJson(m.column === 'tax' ? m.amount : m.line.tax, currency),
    })),
  };
}

/** The product as the eCH-0217 file names it (`sendingApplication`: at most 30, 30 and 10 characters). */
const SENDING_APPLICATION = { manufacturer: 'Ledger platform', product: 'ledger-service', version: '0.1.0' };

/** What the PDF and the eCH-0217 file read: the frozen return, its lines summed, the company. */
async function returnForFile(c: ServiceContext, id: number) {
  const row = await loadReturn(c, id);
  const profile = await getCompanyProfile(c.tx, c.company.id);
  const figures = Object.fromEntries(Object.entries(row.figures).map(([k, v]) => [k, new Money(v)]));
  return { row, profile, figures, payable: new Money(row.payable) };
}

/** The return as an eCH-0217 v2.0.0 VATDeclaration (ech0217.ts); 409 without the company's UID. */
export async function vatReturnXml(c: ServiceContext, id: number): Promise<string> {
  const { row, profile, figures, payable } = await returnForFile(c, id);
  return ech0217Xml({
    id: Number(row.id),
    from: row.from_date,
    to: row.to_date,
    type: row.type,
    basis: row.basis,
    method: row.method,
    figures,
    payable,
    netTaxRates: row.net_tax_rates,
    lines: await returnLineSums(c.tx, c.company.id, id),
    company: { name: profile.name, vatNumber: profile.vat_number },
    generatedAt: new Date(),
    application: SENDING_APPLICATION,
  });
}

/** The return laid out like the ESTV form (pdf.ts), in the company's language. */
export async function vatReturnForm(c: ServiceContext, id: number): Promise<Buffer> {
  const { row, profile, figures } = await returnForFile(c, id);
  return vatReturnPdf({
    language: profile.language,
    id: Number(row.id),
    from: row.from_date,
    to: row.to_date,
    type: row.type,
    basis: row.basis,
    method: row.method,
    status: row.status,
    currency: row.currency.trim(),
    figures,
    netTaxRates: row.net_tax_rates,
    createdAt: row.created_at.toISOString().slice(0, 10),
    company: { name: profile.name, vatNumber: profile.vat_number },
  });
}

/** Posts the settling entry (rules.ts settlementLines), once; the return becomes settled and links it. */
export async function settleReturn(
  c: ServiceContext,
  id: number,
  input: { date?: string },
): Promise<ResponseOf<typeof contracts.settleVatReturn>> {
  const row = await loadReturn(c, id, true);
  if (row.status === 'settled')
    throw conflict(`The VAT return ${id} is already settled (journal entry ${row.settlement_id}).`);
  const date = input.date ?? row.to_date;
  if (date < row.to_date)
    throw ruleInvalid(`A return is settled on or after its period's last day ${row.to_date}.`, '/date');
  assertOpenPeriod(date, await closedUntil(c.tx, c.company.id), '/date');
  const settings = c.company.settings;
  const payableAccount = typeof settings.vat_payable_account === 'string' ? settings.vat_payable_account : null;
  if (payableAccount === null)
    throw ruleInvalid('The company has no vat_payable_account to settle to; set it with POST /system/company.');
  const difference =
    typeof settings.net_tax_difference_account === 'string' ? settings.net_tax_difference_account : null;
  const currency = row.currency.trim();
  const lines = await returnLineSums(c.tx, c.company.id, id);
  const settling = settlementLines(lines, new Money(row.payable), row.method, {
    payable: payableAccount,
    difference,
  });
  const ids = await accountIds(
    c.tx,
    c.company.id,
    settling.map((l) => l.accno),
  );
  const entryLines: JournalLineRow[] = settling.map((l) => {
    const accountId = ids.get(l.accno);
    if (accountId === undefined) throw ruleInvalid(`Account ${l.accno} does not exist in the chart of accounts.`);
    return {
      accountId,
      description: `VAT ${row.from_date} – ${row.to_date}`,
      debit: l.amount.isNegative() ? new Money(0) : l.amount,
      credit: l.amount.isNegative() ? l.amount.negated() : new Money(0),
      baseAmount: l.amount,
      dimensions: null,
    };
  });
  const correction = row.type === 'correction' ? ', correction' : '';
  await allowSettlementPosting(c.tx);
  const entry = await postEntry(c, {
    reference: `VAT-${row.from_date}-${row.type === 'original' ? 'O' : `C${id}`}`,
    transdate: date,
    description: `VAT return ${id} (${row.from_date} to ${row.to_date}${correction})`,
    closing: false,
    fiscalYear: null,
    lines: entryLines,
  });
  await endSettlementPosting(c.tx);
  await markSettled(c.tx, c.company.id, id, entry.id);
  await recordAudit(c.tx, c.company.id, c.actor, 'vat_return', id, 'settle', {
    settlement_id: entry.id,
    payable: row.payable,
  });
  const payable = amountJson(row.payable, currency);
  return { settlement_id: entry.id, payable, amount: Math.abs(payable), currency, reference: entry.reference, date };
}

export async function removeReturn(c: ServiceContext, id: number): Promise<void> {
  const row = await loadReturn(c, id, true);
  if (row.status === 'settled')
    throw conflict(
      `The VAT return ${id} is settled (journal entry ${row.settlement_id}); only a draft can be deleted.`,
    );
  await deleteReturnRow(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, 'vat_return', id, 'delete', { from: row.from_date, to: row.to_date });
}
