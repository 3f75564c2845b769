import type { Knex } from 'knex';
import { up as companyKeys } from './018_company_keys.ts';

/**
 * Tax codes of the Swiss VAT return (docs/vat.md "Tax codes"). A code is the set of `taxes`
 * rows that share it: one row per rate period (its `rate`, `valid_from`, `valid_to`), and on
 * every row the code's `kind` (output, input, acquisition, zero) and the return `figure` it
 * reports under. A zero-rated code (exports, supplies abroad, exempt supplies) books to a tax
 * account of its own that never carries a balance: the line's tax account names its code, so
 * the return splits figure 289 by code without a new field on the lines.
 *
 * Existing companies: every code gets its kind from its account's link (AR_tax output, AP_tax
 * input) and its figure from its latest rate (8.1/7.7 % → 302, 2.6/2.5 % → 312, 3.8/3.7 % → 342,
 * other output rates 382, input 400). Companies on the small-business chart (they hold its
 * accounts 1170 and 2200) get the codes the chart now ships: lodging rate, input tax on
 * investments (405), the three zero-rated codes, and the ESTV clearing and net-tax difference
 * accounts. Nothing posted changes: no ledger line, document line or existing rate row is
 * rewritten, only kind and figure are filled in.
 */
const NEW_ACCOUNTS = [
  {
    accno: '1172',
    description: 'Input VAT on investments and other operating expenses',
    category: 'A',
    link: 'AP_tax',
  },
  { accno: '2202', description: 'Output VAT lodging rate', category: 'L', link: 'AR_tax' },
  { accno: '2205', description: 'VAT zero-rated: exports (figure 220)', category: 'L', link: 'AR_tax' },
  { accno: '2206', description: 'VAT zero-rated: supplies abroad (figure 221)', category: 'L', link: 'AR_tax' },
  { accno: '2207', description: 'VAT exempt supplies (figure 230)', category: 'L', link: 'AR_tax' },
  { accno: '2209', description: 'VAT settlement with the ESTV', category: 'L', link: '' },
  { accno: '3809', description: 'Net tax rate differences', category: 'I', link: '' },
];

const NEW_CODES = [
  ['1172', 'VAT-IN-INV', 'input', '405', 'Input VAT on investments 7.7%', '0.077', '2018-01-01', '2023-12-31'],
  ['1172', 'VAT-IN-INV', 'input', '405', 'Input VAT on investments 8.1%', '0.081', '2024-01-01', null],
  ['2202', 'VAT-OUT-LODG', 'output', '342', 'Output VAT lodging 3.7%', '0.037', '2018-01-01', '2023-12-31'],
  ['2202', 'VAT-OUT-LODG', 'output', '342', 'Output VAT lodging 3.8%', '0.038', '2024-01-01', null],
  ['2205', 'VAT-EXPORT', 'zero', '220', 'Exports (zero-rated)', '0', '2018-01-01', null],
  ['2206', 'VAT-ABROAD', 'zero', '221', 'Supplies abroad', '0', '2018-01-01', null],
  ['2207', 'VAT-EXEMPT', 'zero', '230', 'Exempt supplies', '0', '2018-01-01', null],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('taxes', (t) => {
    t.text('kind');
    t.text('figure');
  });
  await knex.raw(`
    update taxes x set
      kind = case when a.link ~ '(^|:)AP_tax(:|$)' then 'input' else 'output' end,
      figure = case
        when a.link ~ '(^|:)AP_tax(:|$)' then '400'
        when (select l.rate from taxes l where l.company_id = x.company_id and l.code = x.code
               order by l.valid_from desc limit 1) in (0.081, 0.077) then '302'
        when (select l.rate from taxes l where l.company_id = x.company_id and l.code = x.code
               order by l.valid_from desc limit 1) in (0.026, 0.025) then '312'
        when (select l.rate from taxes l where l.company_id = x.company_id and l.code = x.code
               order by l.valid_from desc limit 1) in (0.038, 0.037) then '342'
        else '382' end
      from accounts a
     where a.id = x.account_id and a.company_id = x.company_id`);
  await knex.raw(`alter table taxes alter column kind set not null, alter column figure set not null`);
  await knex.raw(
    `alter table taxes add constraint taxes_kind_check check (kind in ('output','input','acquisition','zero'))`,
  );
  await knex.raw(`alter table taxes add constraint taxes_figure_check check (figure ~ '^[0-9]{3}$')`);
  await knex.raw(`create unique index taxes_code_period on taxes (company_id, code, valid_from)`);

  const chartCompanies = await knex.raw<{ rows: { id: number }[] }>(
    `select c.id from companies c
      where exists (select 1 from accounts a where a.company_id = c.id and a.accno = '1170')
        and exists (select 1 from accounts a where a.company_id = c.id and a.accno = '2200')`,
  );
  for (const { id } of chartCompanies.rows) {
    // the migration runs as the owner; RLS is forced, so name the company for the policy
    await knex.raw(`select set_config('app.company_id', ?, true)`, [String(id)]);
    for (const a of NEW_ACCOUNTS) {
      await knex.raw(
        `insert into accounts (company_id, accno, description, category, link) values (?, ?, ?, ?, ?)
         on conflict do nothing`,
        [id, a.accno, a.description, a.category, a.link],
      );
    }
    for (const code of new Set(NEW_CODES.map((c) => c[1]))) {
      const taken = await knex.raw<{ rows: unknown[] }>(
        `select 1 from taxes t where t.company_id = ? and (t.code = ? or t.account_id in
           (select a.id from accounts a where a.company_id = ? and a.accno = ?))`,
        [id, code, id, NEW_CODES.find((c) => c[1] === code)![0]],
      );
      if (taken.rows.length > 0) continue;
      for (const [accno, , kind, figure, description, rate, from, to] of NEW_CODES.filter((c) => c[1] === code)) {
        await knex.raw(
          `insert into taxes (company_id, account_id, code, kind, figure, description, rate, valid_from, valid_to)
           select ?, a.id, ?, ?, ?, ?, ?, ?, ? from accounts a where a.company_id = ? and a.accno = ?`,
          [id, code, kind, figure, description, rate, from, to, id, accno],
        );
      }
    }
    // the settlement accounts become the company's settings unless it named others
    await knex.raw(
      `update companies set settings = jsonb_build_object('vat_payable_account', '2209',
                                                         'net_tax_difference_account', '3809') || settings
        where id = ?`,
      [id],
    );
  }
  await knex.raw(`select set_config('app.company_id', '', true)`);
  await companyKeys(knex);
}

export async function down(): Promise<void> {
  throw new Error('026_tax_codes cannot be undone: restore a backup taken before it');
}
