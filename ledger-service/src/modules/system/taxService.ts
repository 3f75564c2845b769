import type { BodyOf, contracts, ResponseOf } from '@ledger/shared';
import { Money } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { today } from '../../domain/period.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { checkRateHistory, checkUsedRatesKept, currentPeriod, taxLinkOf, type RatePeriod } from './taxRules.ts';
import {
  codeOfAccount,
  deleteTaxCodeRows,
  linesUsingAccount,
  listTaxCodes,
  lockTaxCode,
  usedRates,
  writeTaxCode,
  type StoredTaxCode,
} from './taxStore.ts';
import { lockAccount } from './store.ts';

/**
 * Tax codes over the API (docs/vat.md "Tax codes"): add, change (a new rate is a new period;
 * what was posted keeps its rate), delete an unused one. Audited.
 */

export type TaxCodeRead = ResponseOf<typeof contracts.getTax>;

function readShape(code: StoredTaxCode): TaxCodeRead {
  const now = currentPeriod(code.periods, today());
  return {
    code: code.code,
    description: code.description,
    accno: code.accno,
    kind: code.kind,
    figure: code.figure,
    rate: Number(now.rate),
    valid_from: now.valid_from,
    valid_to: now.valid_to,
    rates: code.periods.map((p) => ({
      rate: Number(p.rate),
      valid_from: p.valid_from,
      valid_to: p.valid_to,
      description: p.description,
    })),
  };
}

export async function taxCodePage(c: ServiceContext, page: { limit: number; offset: number }) {
  const { rows, total } = await listTaxCodes(c.tx, c.company.id, page);
  return { rows: rows.map(readShape), total };
}

export async function taxCodeRead(c: ServiceContext, code: string): Promise<TaxCodeRead> {
  const stored = await lockTaxCode(c.tx, c.company.id, code);
  if (!stored) throw notFound(`No tax code ${code}.`);
  return readShape(stored);
}

type RateInput = { rate: number; valid_from: string; valid_to?: string | null; description?: string };

function periodsOf(rates: readonly RateInput[], description: string): RatePeriod[] {
  return checkRateHistory(
    rates.map((r) => ({
      // the rate as its exact decimal text (the schema allows 5 decimals)
      rate: new Money(r.rate).toFixed(6),
      valid_from: r.valid_from,
      valid_to: r.valid_to ?? null,
      description: r.description ?? description,
    })),
  );
}

/** The tax account: it exists, carries the kind's tax link and books no other code. */
async function taxAccount(c: ServiceContext, accno: string, kind: string, code: string): Promise<number> {
  const account = await lockAccount(c.tx, c.company.id, accno);
  if (!account) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, '/accno');
  const link = taxLinkOf(kind);
  if (!account.link.split(':').includes(link))
    throw ruleInvalid(`Account ${accno} cannot book ${kind} tax: it needs the link ${link}.`, '/accno');
  const other = await codeOfAccount(c.tx, c.company.id, account.id);
  if (other !== undefined && other !== code)
    throw conflict(`Account ${accno} already books the tax code ${other}; a tax account has one code.`, '/accno');
  return account.id;
}

export async function addTaxCode(c: ServiceContext, input: BodyOf<typeof contracts.createTax>): Promise<TaxCodeRead> {
  if (await lockTaxCode(c.tx, c.company.id, input.code))
    throw conflict(`Tax code ${input.code} already exists.`, '/code');
  const code: StoredTaxCode = {
    code: input.code,
    description: input.description,
    accno: input.accno,
    accountId: await taxAccount(c, input.accno, input.kind, input.code),
    kind: input.kind,
    figure: input.figure,
    periods: periodsOf(input.rates, input.description),
  };
  await writeTaxCode(c.tx, c.company.id, code);
  await recordAudit(c.tx, c.company.id, c.actor, 'tax', null, 'create', { ...input });
  return taxCodeRead(c, code.code);
}

export async function changeTaxCode(
  c: ServiceContext,
  codeName: string,
  input: BodyOf<typeof contracts.updateTax>,
): Promise<TaxCodeRead> {
  const stored = await lockTaxCode(c.tx, c.company.id, codeName);
  if (!stored) throw notFound(`No tax code ${codeName}.`);
  const kind = input.kind ?? stored.kind;
  const accno = input.accno ?? stored.accno;
  const used = await usedRates(c.tx, c.company.id, stored.accountId);
  if (accno !== stored.accno && (await linesUsingAccount(c.tx, c.company.id, stored.accountId)) > 0)
    throw conflict(
      `Tax code ${codeName} is used by document lines: its account ${stored.accno} cannot change.`,
      '/accno',
    );
  const description = input.description ?? stored.description;
  const periods = input.rates
    ? periodsOf(input.rates, description)
    : stored.periods.map((p) => (input.description && p === stored.periods.at(-1) ? { ...p, description } : p));
  checkUsedRatesKept(codeName, periods, used);
  const next: StoredTaxCode = {
    code: codeName,
    description,
    accno,
    accountId: await taxAccount(c, accno, kind, codeName),
    kind,
    figure: input.figure ?? stored.figure,
    periods,
  };
  await writeTaxCode(c.tx, c.company.id, next);
  await recordAudit(c.tx, c.company.id, c.actor, 'tax', null, 'update', { code: codeName, ...input });
  return taxCodeRead(c, codeName);
}

export async function removeTaxCode(c: ServiceContext, codeName: string): Promise<void> {
  const stored = await lockTaxCode(c.tx, c.company.id, codeName);
  if (!stored) throw notFound(`No tax code ${codeName}.`);
  const lines = await linesUsingAccount(c.tx, c.company.id, stored.accountId);
  if (lines > 0) {
    throw conflict(
      `Tax code ${codeName} is used by ${lines} document line${lines === 1 ? '' : 's'} ` +
        `(tax account ${stored.accno}); only an unused code can be deleted.`,
    );
  }
  await deleteTaxCodeRows(c.tx, c.company.id, codeName);
  await recordAudit(c.tx, c.company.id, c.actor, 'tax', null, 'delete', { code: codeName });
}
