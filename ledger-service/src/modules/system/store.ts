import type { Tx } from '../../db/knex.ts';

/** The chart of accounts and the tax rates, in their API shapes. Runs inside a tenant transaction. */

export interface TaxRate {
  code: string;
  accno: string;
  /** a fraction: 0.081 is 8.1 % (a rate, not an amount, so a JSON number is exact enough) */
  rate: number;
  valid_from: string;
  valid_to: string | null;
  description: string;
}

export interface ChartAccount {
  accno: string;
  description: string;
  category: string;
  /** SQL-Ledger style, colon separated */
  link: string;
  links: string[];
  taxes: Omit<TaxRate, 'accno'>[];
}

export async function listTaxes(tx: Tx): Promise<TaxRate[]> {
  const rows = await tx('taxes as t')
    .join('accounts as a', 'a.id', 't.account_id')
    .orderBy(['a.accno', 't.code', 't.valid_from'])
    .select('t.code', 'a.accno', 't.rate', 't.valid_from', 't.valid_to', 't.description');
  return rows.map((r: { code: string; accno: string; rate: string; valid_from: string; valid_to: string | null; description: string }) => ({
    code: r.code, accno: r.accno, rate: Number(r.rate), valid_from: r.valid_from, valid_to: r.valid_to, description: r.description,
  }));
}

export async function listAccounts(tx: Tx): Promise<ChartAccount[]> {
  const [accounts, taxes] = [
    await tx('accounts').orderBy('accno').select('accno', 'description', 'category', 'link'),
    await listTaxes(tx),
  ];
  return accounts.map((a: { accno: string; description: string; category: string; link: string }) => ({
    accno: a.accno,
    description: a.description,
    category: a.category.trim(),
    link: a.link,
    links: a.link ? a.link.split(':') : [],
    taxes: taxes.filter((t) => t.accno === a.accno).map(({ accno: _accno, ...t }) => t),
  }));
}
