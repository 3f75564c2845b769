import type { Decimal } from 'decimal.js';
import {
  amountJson,
  Money,
  type AssetCreateInput,
  type AssetDisposalInput,
  type AssetUpdateInput,
} from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import type { AssetsRow } from '../../db/tables.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { postEntry, type JournalLineRow } from '../journal/index.ts';
import { accountBalance } from '../reports/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { checkTerms, depreciationUpTo, type AssetTerms } from './rules.ts';
import { fiscalCalendarOf } from '../../domain/fiscalYear.ts';
import {
  accountNumbers,
  accountsByNumber,
  bookedDepreciation,
  deleteAsset,
  insertAsset,
  insertDepreciations,
  loadAssets,
  updateAsset,
  type AssetColumns,
  type BookedRow,
} from './store.ts';

/**
 * The asset register, depreciation runs, disposal and the asset schedule (docs/year-end.md
 * "Fixed assets"): loaded, computed by rules.ts, posted as journal entries and audited in the
 * request's transaction.
 */

const ENTITY = 'asset';

/**
 * An asset's terms; `yearStartMonth` from the company's fiscal years (the regular years: a first year of its own
 * is not followed).
 */
const termsOf = (a: AssetsRow, yearStartMonth = 1): AssetTerms => ({
  acquired: a.acquired,
  cost: new Money(a.cost),
  residual: new Money(a.residual),
  method: a.method === 'declining' ? 'declining' : 'linear',
  lifeMonths: a.life_months,
  rate: a.rate === null ? null : new Money(a.rate),
  frequency: a.frequency === 'month' || a.frequency === 'quarter' ? a.frequency : 'year',
  yearStartMonth,
});

const sumOf = (rows: readonly BookedRow[], keep: (r: BookedRow) => boolean) =>
  rows.filter(keep).reduce((s, r) => s.plus(r.amount), new Money(0));

/** The accounts an asset names, resolved and checked by category. */
async function accountColumns(c: ServiceContext, input: AssetUpdateInput) {
  const named = [input.asset_account, input.expense_account, input.accumulated_account].filter(
    (a): a is string => a !== undefined,
  );
  const accounts = await accountsByNumber(c.tx, c.company.id, named);
  const pick = (field: 'asset_account' | 'expense_account' | 'accumulated_account', category: string) => {
    const accno = input[field];
    if (accno === undefined) return undefined;
    const account = accounts.get(accno);
    if (!account) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, `/${field}`);
    if (account.category !== category)
      throw ruleInvalid(
        `Account ${accno} is not ${category === 'A' ? 'an asset' : 'an expense'} account.`,
        `/${field}`,
      );
    return account.id;
  };
  return {
    asset_account_id: pick('asset_account', 'A'),
    expense_account_id: pick('expense_account', 'E'),
    accumulated_account_id: pick('accumulated_account', 'A'),
  };
}

function checkedTerms(c: ServiceContext, cols: AssetColumns): void {
  checkTerms(
    termsOf({ ...cols, id: 0, company_id: 0, created_at: new Date(), disposed: null, disposal_journal_id: null }),
    c.company.base_currency,
  );
}

export async function addAsset(c: ServiceContext, input: AssetCreateInput): Promise<{ id: number }> {
  const accounts = await accountColumns(c, input);
  const cols: AssetColumns = {
    name: input.name,
    asset_account_id: accounts.asset_account_id!,
    expense_account_id: accounts.expense_account_id!,
    accumulated_account_id: accounts.accumulated_account_id ?? null,
    acquired: input.acquired,
    cost: new Money(input.cost).toFixed(),
    residual: new Money(input.residual ?? 0).toFixed(),
    method: input.method,
    life_months: input.method === 'linear' ? (input.life_months ?? null) : null,
    rate: input.method === 'declining' && input.rate !== undefined ? new Money(input.rate).toFixed() : null,
    frequency: input.frequency,
  };
  checkedTerms(c, cols);
  const id = await insertAsset(c.tx, c.company.id, cols);
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'create', { name: input.name, cost: cols.cost });
  return { id };
}

/** The read shape of assets, with what posted runs booked for them. */
async function readShapes(c: ServiceContext, assets: readonly AssetsRow[]) {
  const booked = await bookedDepreciation(c.tx, c.company.id);
  const ids = assets.flatMap((a) => [
    a.asset_account_id,
    a.expense_account_id,
    ...(a.accumulated_account_id === null ? [] : [a.accumulated_account_id]),
  ]);
  const accnos = await accountNumbers(c.tx, c.company.id, [...new Set(ids)]);
  const currency = c.company.base_currency;
  return assets.map((a) => {
    const mine = booked.filter((b) => b.asset_id === a.id);
    const depreciated = sumOf(mine, () => true);
    return {
      id: a.id,
      name: a.name,
      asset_account: accnos.get(a.asset_account_id) ?? '',
      expense_account: accnos.get(a.expense_account_id) ?? '',
      accumulated_account: a.accumulated_account_id === null ? null : (accnos.get(a.accumulated_account_id) ?? null),
      acquired: a.acquired,
      cost: amountJson(a.cost, currency),
      residual: amountJson(a.residual, currency),
      method: a.method,
      life_months: a.life_months,
      rate: a.rate === null ? null : new Money(a.rate).toNumber(),
      frequency: a.frequency,
      depreciated: amountJson(depreciated, currency),
      book_value: amountJson(a.disposed === null ? new Money(a.cost).minus(depreciated) : 0, currency),
      depreciated_to:
        mine
          .map((b) => b.date)
          .sort()
          .at(-1) ?? null,
      disposed: a.disposed,
      disposal_journal_id: a.disposal_journal_id,
    };
  });
}

export async function listAssetShapes(c: ServiceContext) {
  return readShapes(c, await loadAssets(c.tx, c.company.id));
}

export async function assetById(c: ServiceContext, id: number) {
  const [shape] = await readShapes(c, await loadAssets(c.tx, c.company.id, { id }));
  if (!shape) throw notFound(`No asset with id ${id}.`);
  return shape;
}

/** Whether anything was booked for the asset: then its terms are fixed. */
async function bookedFor(c: ServiceContext, asset: AssetsRow): Promise<boolean> {
  if (asset.disposed !== null) return true;
  return (await bookedDepreciation(c.tx, c.company.id)).some((b) => b.asset_id === asset.id);
}

export async function changeAsset(c: ServiceContext, id: number, input: AssetUpdateInput) {
  const [asset] = await loadAssets(c.tx, c.company.id, { id, lock: true });
  if (!asset) throw notFound(`No asset with id ${id}.`);
  const fields = Object.keys(input);
  if (fields.some((f) => f !== 'name') && (await bookedFor(c, asset)))
    throw conflict('Depreciation is booked for this asset: only its name may change.');
  const accounts = await accountColumns(c, input);
  const cols: AssetColumns = {
    name: input.name ?? asset.name,
    asset_account_id: accounts.asset_account_id ?? asset.asset_account_id,
    expense_account_id: accounts.expense_account_id ?? asset.expense_account_id,
    accumulated_account_id: accounts.accumulated_account_id ?? asset.accumulated_account_id,
    acquired: input.acquired ?? asset.acquired,
    cost: input.cost === undefined ? asset.cost : new Money(input.cost).toFixed(),
    residual: input.residual === undefined ? asset.residual : new Money(input.residual).toFixed(),
    method: input.method ?? asset.method,
    life_months: input.life_months ?? asset.life_months,
    rate: input.rate === undefined ? asset.rate : new Money(input.rate).toFixed(),
    frequency: input.frequency ?? asset.frequency,
  };
  checkedTerms(c, cols);
  await updateAsset(c.tx, c.company.id, id, cols);
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'update', { fields });
  return assetById(c, id);
}

export async function removeAsset(c: ServiceContext, id: number): Promise<void> {
  const [asset] = await loadAssets(c.tx, c.company.id, { id, lock: true });
  if (!asset) throw notFound(`No asset with id ${id}.`);
  if (await bookedFor(c, asset)) throw conflict('Depreciation or a disposal is booked for this asset: it stays.');
  await deleteAsset(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'delete', { name: asset.name });
}

const line = (accountId: number, amount: Decimal, description: string): JournalLineRow => ({
  accountId,
  description,
  debit: amount.isNegative() ? new Money(0) : amount,
  credit: amount.isNegative() ? amount.negated() : new Money(0),
  baseAmount: amount,
  dimensions: null,
});

/**
 * POST /assets/depreciation_run: what every asset (not disposed of by `to`) owes up to `to`
 * less what posted runs booked, as one journal entry dated `to`; nothing due → no entry.
 * The assets are locked, so two runs at once book once.
 */
export async function runDepreciation(c: ServiceContext, to: string) {
  assertOpenPeriod(to, await closedUntil(c.tx, c.company.id), '/to');
  const assets = await loadAssets(c.tx, c.company.id, { lock: true });
  const booked = await bookedDepreciation(c.tx, c.company.id);
  const currency = c.company.base_currency;
  const due = assets.flatMap((a) => {
    if (a.disposed !== null && a.disposed <= to) return [];
    const amount = depreciationUpTo(termsOf(a, fiscalCalendarOf(c.company.settings).startMonth), to, currency).minus(
      sumOf(booked, (b) => b.asset_id === a.id),
    );
    return amount.greaterThan(0) ? [{ asset: a, amount }] : [];
  });
  if (due.length === 0) return { journal_id: null, assets: [] };
  const lines = due.flatMap(({ asset, amount }) => [
    line(asset.expense_account_id, amount, `Depreciation ${asset.name}`),
    line(asset.accumulated_account_id ?? asset.asset_account_id, amount.negated(), `Depreciation ${asset.name}`),
  ]);
  const entry = await postEntry(c, {
    reference: `DEP-${to}`,
    transdate: to,
    description: `Depreciation to ${to}`,
    closing: false,
    fiscalYear: null,
    lines,
  });
  await insertDepreciations(
    c.tx,
    c.company.id,
    entry.id,
    to,
    due.map((d) => ({ assetId: d.asset.id, amount: d.amount.toFixed() })),
  );
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, entry.id, 'depreciation_run', {
    to,
    assets: due.map((d) => d.asset.id),
  });
  return {
    journal_id: entry.id,
    assets: due.map((d) => ({ id: d.asset.id, amount: amountJson(d.amount, currency) })),
  };
}

/**
 * POST /assets/{id}/dispose: one entry dated `date` taking the asset out at its book value
 * (cost and accumulated depreciation, or the directly depreciated asset account), the
 * proceeds to `account` and proceeds − book value to the result account.
 */
export async function disposeAsset(c: ServiceContext, id: number, input: AssetDisposalInput) {
  const [asset] = await loadAssets(c.tx, c.company.id, { id, lock: true });
  if (!asset) throw notFound(`No asset with id ${id}.`);
  if (asset.disposed !== null) throw conflict(`The asset was disposed of on ${asset.disposed}.`);
  if (input.date < asset.acquired) throw ruleInvalid('The disposal date lies before the acquisition.', '/date');
  assertOpenPeriod(input.date, await closedUntil(c.tx, c.company.id), '/date');
  const currency = c.company.base_currency;
  const named = [input.account, ...(input.result_account ? [input.result_account] : [])];
  const accounts = await accountsByNumber(c.tx, c.company.id, named);
  const proceedsAccount = accounts.get(input.account);
  if (!proceedsAccount) throw ruleInvalid(`Account ${input.account} does not exist.`, '/account');
  const resultAccount = input.result_account === undefined ? undefined : accounts.get(input.result_account);
  if (input.result_account !== undefined && !resultAccount)
    throw ruleInvalid(`Account ${input.result_account} does not exist.`, '/result_account');
  const booked = sumOf(await bookedDepreciation(c.tx, c.company.id), (b) => b.asset_id === id);
  const cost = new Money(asset.cost);
  const bookValue = cost.minus(booked);
  const proceeds = new Money(input.proceeds);
  const gain = proceeds.minus(bookValue);
  const text = `Disposal ${asset.name}`;
  const lines = [
    ...(asset.accumulated_account_id === null
      ? [line(asset.asset_account_id, bookValue.negated(), text)]
      : [line(asset.asset_account_id, cost.negated(), text), line(asset.accumulated_account_id, booked, text)]),
    line(proceedsAccount.id, proceeds, text),
    line(resultAccount?.id ?? asset.expense_account_id, gain.negated(), text),
  ].filter((l) => !l.baseAmount.isZero());
  const entry = await postEntry(c, {
    reference: `DISP-${id}`,
    transdate: input.date,
    description: text,
    closing: false,
    fiscalYear: null,
    lines,
  });
  await updateAsset(c.tx, c.company.id, id, { disposed: input.date, disposal_journal_id: entry.id });
  await recordAudit(c.tx, c.company.id, c.actor, ENTITY, id, 'dispose', { date: input.date, journal_id: entry.id });
  return {
    journal_id: entry.id,
    book_value: amountJson(bookValue, currency),
    proceeds: amountJson(proceeds, currency),
    gain: amountJson(gain, currency),
  };
}

/** GET /reports/assets: the schedule per asset and in total, and its tie-out with the ledger. */
export async function assetSchedule(c: ServiceContext, range: { from: string; to: string }) {
  const assets = await loadAssets(c.tx, c.company.id);
  const booked = await bookedDepreciation(c.tx, c.company.id);
  const currency = c.company.base_currency;
  const accnos = await accountNumbers(c.tx, c.company.id, [...new Set(assets.map((a) => a.asset_account_id))]);
  const zero = new Money(0);
  const rows = assets.map((a) => {
    const mine = booked.filter((b) => b.asset_id === a.id);
    const cost = new Money(a.cost);
    const goneBefore = a.disposed !== null && a.disposed < range.from;
    const opening = a.acquired < range.from && !goneBefore ? cost.minus(sumOf(mine, (b) => b.date < range.from)) : zero;
    const additions = a.acquired >= range.from && a.acquired <= range.to ? cost : zero;
    const depreciation = sumOf(mine, (b) => b.date >= range.from && b.date <= range.to);
    const disposals =
      a.disposed !== null && a.disposed >= range.from && a.disposed <= range.to
        ? cost.minus(sumOf(mine, (b) => b.date <= a.disposed!))
        : zero;
    const closing = opening.plus(additions).minus(depreciation).minus(disposals);
    return { asset: a, figures: { opening, additions, depreciation, disposals, closing } };
  });
  const keys = ['opening', 'additions', 'depreciation', 'disposals', 'closing'] as const;
  const json = (f: Record<(typeof keys)[number], Decimal>) =>
    Object.fromEntries(keys.map((k) => [k, amountJson(f[k], currency)]));
  const totals = Object.fromEntries(
    keys.map((k) => [k, rows.reduce((s, r) => s.plus(r.figures[k]), new Money(0))]),
  ) as Record<(typeof keys)[number], Decimal>;

  // per asset account: its assets' closing book values against the ledger (the account and its contra accounts)
  const accounts = [];
  for (const accountId of [...new Set(assets.map((a) => a.asset_account_id))]) {
    const group = rows.filter((r) => r.asset.asset_account_id === accountId);
    const schedule = group.reduce((s, r) => s.plus(r.figures.closing), new Money(0));
    const contra = [...new Set(group.flatMap((r) => r.asset.accumulated_account_id ?? []))];
    let ledger = new Money(0);
    for (const id of [accountId, ...contra]) {
      ledger = ledger.plus(await accountBalance(c.tx, c.company.id, id, { from: null, to: range.to }));
    }
    accounts.push({
      account: accnos.get(accountId) ?? '',
      schedule: amountJson(schedule, currency),
      ledger: amountJson(ledger, currency),
      difference: amountJson(ledger.minus(schedule), currency),
    });
  }
  return {
    ...range,
    currency,
    assets: rows.map((r) => ({
      id: r.asset.id,
      name: r.asset.name,
      asset_account: accnos.get(r.asset.asset_account_id) ?? '',
      ...json(r.figures),
    })),
    totals: json(totals),
    accounts,
  };
}
