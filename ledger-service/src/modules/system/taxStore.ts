import type { Tx } from '../../db/knex.ts';
import type { TaxesRow } from '../../db/tables.ts';
import type { RatePeriod, UsedRate } from './taxRules.ts';

/** The tax codes' SQL (docs/vat.md "Tax codes"): one `taxes` row per rate period of a code. */

export interface StoredTaxCode {
  code: string;
  description: string;
  accno: string;
  accountId: number;
  kind: TaxesRow['kind'];
  figure: string;
  periods: RatePeriod[];
}

interface TaxRow {
  code: string;
  description: string;
  accno: string;
  account_id: number;
  kind: TaxesRow['kind'];
  figure: string;
  rate: string;
  valid_from: string;
  valid_to: string | null;
}

function grouped(rows: readonly TaxRow[]): StoredTaxCode[] {
  const byCode = new Map<string, StoredTaxCode>();
  for (const r of rows) {
    const code = byCode.get(r.code) ?? {
      code: r.code,
      description: r.description,
      accno: r.accno,
      accountId: Number(r.account_id),
      kind: r.kind,
      figure: r.figure,
      periods: [],
    };
    code.periods.push({ rate: r.rate, valid_from: r.valid_from, valid_to: r.valid_to, description: r.description });
    // the code's own wording: its latest period's
    code.description = r.description;
    byCode.set(r.code, code);
  }
  return [...byCode.values()];
}

const COLUMNS = [
  't.code',
  't.description',
  'a.accno',
  't.account_id',
  't.kind',
  't.figure',
  't.rate',
  't.valid_from',
  't.valid_to',
];

/** One page of the codes, by code, each with its periods in date order. */
export async function listTaxCodes(
  tx: Tx,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: StoredTaxCode[]; total: number }> {
  const codes = await tx('taxes')
    .where({ company_id: companyId })
    .distinct('code')
    .orderBy('code')
    .limit(page.limit)
    .offset(page.offset);
  const total = await tx('taxes').where({ company_id: companyId }).countDistinct({ n: 'code' }).first();
  const rows = await tx<TaxRow>('taxes as t')
    .join('accounts as a', function () {
      this.on('a.id', 't.account_id').andOn('a.company_id', 't.company_id');
    })
    .where('t.company_id', companyId)
    .whereIn(
      't.code',
      codes.map((c) => c.code),
    )
    .orderBy(['t.code', 't.valid_from'])
    .select<TaxRow[]>(COLUMNS);
  return { rows: grouped(rows), total: Number(total?.n ?? 0) };
}

/** One code with its periods, locked for a change (a posting reading its rates waits for the change). */
export async function lockTaxCode(tx: Tx, companyId: number, code: string): Promise<StoredTaxCode | undefined> {
  const rows = await tx<TaxRow>('taxes as t')
    .join('accounts as a', function () {
      this.on('a.id', 't.account_id').andOn('a.company_id', 't.company_id');
    })
    .where('t.company_id', companyId)
    .andWhere('t.code', code)
    .orderBy('t.valid_from')
    .forUpdate()
    .select<TaxRow[]>(COLUMNS);
  return grouped(rows)[0];
}

/** The code that books to an account, if any (one code per account). */
export async function codeOfAccount(tx: Tx, companyId: number, accountId: number): Promise<string | undefined> {
  const row = await tx('taxes').where({ company_id: companyId, account_id: accountId }).first('code');
  return row?.code;
}

/** Replaces a code's rows: its periods, each carrying the code's account, kind and figure. */
export async function writeTaxCode(tx: Tx, companyId: number, code: StoredTaxCode): Promise<void> {
  await tx('taxes').where({ company_id: companyId, code: code.code }).delete();
  await tx('taxes').insert(
    code.periods.map((p) => ({
      company_id: companyId,
      account_id: code.accountId,
      code: code.code,
      kind: code.kind,
      figure: code.figure,
      description: p.description,
      rate: p.rate,
      valid_from: p.valid_from,
      valid_to: p.valid_to,
    })),
  );
}

export async function deleteTaxCodeRows(tx: Tx, companyId: number, code: string): Promise<void> {
  await tx('taxes').where({ company_id: companyId, code }).delete();
}

/** Document lines that name the code's tax account (drafts included: they would post with it). */
export async function linesUsingAccount(tx: Tx, companyId: number, accountId: number): Promise<number> {
  const row = await tx('arap_lines')
    .where({ company_id: companyId, tax_account_id: accountId })
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** Each day and rate the account's posted document lines were taxed at. */
export async function usedRates(tx: Tx, companyId: number, accountId: number): Promise<UsedRate[]> {
  const { rows } = await tx.raw<{ rows: { date: string; rate: string }[] }>(
    `select distinct t.inv_date::text as date, l.tax_rate::text as rate
       from arap_lines l join arap_transactions t on t.id = l.transaction_id and t.company_id = l.company_id
      where l.company_id = ? and l.tax_account_id = ? and l.tax_rate is not null and t.status <> 'draft'
      order by 1`,
    [companyId, accountId],
  );
  return rows;
}
