/**
 * Migration 026 on books that exist (docs/vat.md "Tax codes"): existing companies get the tax
 * codes the chart now ships and the settlement accounts, their codes get a kind and a figure,
 * and nothing posted changes (ledger lines and the existing rate rows stay as they were).
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { migrateSerialised } from '@ledger/shared/migrate';
import { recreateDatabase } from '../../../scripts/database.ts';
import { createCompany } from './companies.ts';
import { createDb, type Db } from './knex.ts';
import { migrationSource } from './migrations/index.ts';

// as test/helpers.ts names it; not imported from there, which loads the whole ledger
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

async function scratchDb(t: { teardown(fn: () => unknown): void }): Promise<Db> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${url.pathname.slice(1)}_taxcodes_${randomBytes(4).toString('hex')}`;
  await recreateDatabase(url.toString());
  const db = createDb(url.toString(), { poolMax: 2 });
  t.teardown(async () => {
    await db.destroy();
    const admin = createDb(Object.assign(new URL(url), { pathname: '/postgres' }).toString(), { poolMax: 1 });
    await admin.raw(`drop database if exists ?? with (force)`, [url.pathname.slice(1)]);
    await admin.destroy();
  });
  return db;
}

async function before026(): Promise<Knex.MigrationSource<string>> {
  const all = await migrationSource.getMigrations([]);
  const names = all.slice(0, all.indexOf('026_tax_codes'));
  return {
    getMigrations: async () => names,
    getMigrationName: (n) => n,
    getMigration: (n) => migrationSource.getMigration(n),
  };
}

t.test('026: new codes and settlement accounts for existing companies, posted figures unchanged', async (t) => {
  const db = await scratchDb(t);
  await migrateSerialised(db, await before026(), 'before 026');
  // today's createCompany writes kind and figure, and the accounts' names (045): the columns exist only while the
  // company is made
  await db.raw('alter table taxes add column kind text, add column figure text');
  await db.raw('alter table accounts add column names jsonb');
  const co = await createCompany(db, { dataset: `m-${randomBytes(3).toString('hex')}`, name: 'M' });
  await db.raw('alter table taxes drop column kind, drop column figure');
  await db.raw('alter table accounts drop column names');
  // the company as 025 knew it: the old chart's codes, without the new ones
  await db('taxes')
    .where({ company_id: co.id })
    .whereNotIn('code', ['VAT-IN-STD', 'VAT-OUT-STD', 'VAT-OUT-RED'])
    .delete();
  await db('accounts').where({ company_id: co.id }).whereIn('accno', ['1172', '2202', '2205', '2206', '2207']).delete();
  await db.raw(`update companies set settings = settings - 'vat_payable_account' - 'net_tax_difference_account'`);
  const account = async (accno: string) =>
    Number((await db('accounts').where({ company_id: co.id, accno }).first('id'))!.id);
  await db('ledger_entries').insert([
    {
      company_id: co.id,
      account_id: await account('2200'),
      date: '2023-05-01',
      amount: '-7.70',
      fx_amount: '-7.70',
      currency: 'CHF',
      kind: 'tax',
    },
    {
      company_id: co.id,
      account_id: await account('1100'),
      date: '2023-05-01',
      amount: '7.70',
      fx_amount: '7.70',
      currency: 'CHF',
      kind: 'control',
    },
  ]);
  const entriesBefore = await db('ledger_entries').where({ company_id: co.id }).orderBy('id').select('*');
  const ratesBefore = await db('taxes')
    .where({ company_id: co.id })
    .orderBy(['code', 'valid_from'])
    .select('code', 'account_id', 'rate', 'valid_from', 'valid_to', 'description');

  await migrateSerialised(db, migrationSource, 'ledger-service migrations');

  // the columns the lines had before: later migrations add their own (039: dimensions, null on old lines)
  const columnsBefore = Object.keys(entriesBefore[0] ?? {});
  t.same(
    await db('ledger_entries').where({ company_id: co.id }).orderBy('id').select(columnsBefore),
    entriesBefore,
    'ledger lines unchanged',
  );
  const after = await db('taxes').where({ company_id: co.id }).orderBy(['code', 'valid_from']).select('*');
  t.same(
    after
      .filter((r) => ratesBefore.some((b) => b.code === r.code))
      .map(({ code, account_id, rate, valid_from, valid_to, description }) => ({
        code,
        account_id,
        rate,
        valid_from,
        valid_to,
        description,
      })),
    ratesBefore,
    'the existing rate rows unchanged',
  );
  t.same(
    [...new Set(after.map((r) => `${r.code} ${r.kind} ${r.figure}`))],
    [
      'VAT-ABROAD zero 221',
      'VAT-EXEMPT zero 230',
      'VAT-EXPORT zero 220',
      'VAT-IN-INV input 405',
      'VAT-IN-STD input 400',
      'VAT-OUT-LODG output 342',
      'VAT-OUT-RED output 312',
      'VAT-OUT-STD output 302',
    ],
    'existing codes got kind and figure; the new codes were added',
  );
  const company = await db('companies').where({ id: co.id }).first('settings');
  t.match(company!.settings, { vat_payable_account: '2209', net_tax_difference_account: '3809' });
});
