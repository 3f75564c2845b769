import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * What the reports read (docs/reports.md "Performance"):
 *
 * - `ledger_balances`: per company, account, month and closing flag, the sum of the debit
 *   lines and of the credit lines. Kept by statement-level triggers on ledger_entries that
 *   only ever INSERT delta rows (one per account and month a statement touched), never
 *   update a shared row: postings take no lock another posting could wait on, and no two
 *   postings can deadlock over balance rows. The reports add the rows up (whole months)
 *   and merge the delta rows into one row per account and month from time to time
 *   (`compactBalances`, modules/reports/reads.ts).
 * - an index on ledger_entries (company_id, date) INCLUDE (account_id, amount) for the
 *   partial months at the edges of a report's range, read index-only; the existing
 *   (company_id, account_id, date) index gets `amount` included for one account's lines
 *   (GET /gl/ledger) the same way.
 *
 * The closing flag of ledger_entries (migration 010, closing entries of fiscal years) is
 * read through to_jsonb so that this trigger works whether or not that column exists yet
 * when it is created (the migrations of one release are written in parallel).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ledger_balances', (t) => {
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.date('month').notNullable(); // first day of the month
    t.boolean('closing').notNullable().defaultTo(false);
    t.decimal('debit', 24, 6).notNullable(); // sum of the lines > 0
    t.decimal('credit', 24, 6).notNullable(); // sum of the lines < 0 (negative)
    // false: a delta row written by the trigger; true: the sum of merged rows (compaction)
    t.boolean('compacted').notNullable().defaultTo(false);
  });
  await knex.raw(
    `create index ledger_balances_company_month on ledger_balances (company_id, month) include (account_id, ` +
      `closing, debit, credit)`,
  );
  await enableTenantRls(knex, 'ledger_balances');

  await knex.raw(`
    create function ledger_balances_delta() returns trigger language plpgsql as $$
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ledger_balances (company_id, account_id, month, closing, debit, credit)
        select n.company_id, n.account_id, date_trunc('month', n.date)::date,
               coalesce((to_jsonb(n) ->> 'closing')::boolean, false),
               coalesce(sum(n.amount) filter (where n.amount > 0), 0),
               coalesce(sum(n.amount) filter (where n.amount < 0), 0)
          from new_rows n
         group by 1, 2, 3, 4;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        -- lines deleted with their company (cascade) leave nothing to keep
        insert into ledger_balances (company_id, account_id, month, closing, debit, credit)
        select o.company_id, o.account_id, date_trunc('month', o.date)::date,
               coalesce((to_jsonb(o) ->> 'closing')::boolean, false),
               -coalesce(sum(o.amount) filter (where o.amount > 0), 0),
               -coalesce(sum(o.amount) filter (where o.amount < 0), 0)
          from old_rows o
         where exists (select 1 from companies c where c.id = o.company_id)
         group by 1, 2, 3, 4;
      end if;
      return null;
    end $$`);
  await knex.raw(
    `create trigger ledger_balances_insert after insert on ledger_entries referencing new table as new_rows ` +
      `for each statement execute function ledger_balances_delta()`,
  );
  await knex.raw(
    `create trigger ledger_balances_delete after delete on ledger_entries referencing old table as old_rows ` +
      `for each statement execute function ledger_balances_delta()`,
  );
  await knex.raw(
    `create trigger ledger_balances_update after update on ledger_entries referencing old table as old_rows ` +
      `new table as new_rows for each statement execute function ledger_balances_delta()`,
  );

  // lines written before this migration
  await knex.raw(`
    insert into ledger_balances (company_id, account_id, month, closing, debit, credit, compacted)
    select e.company_id, e.account_id, date_trunc('month', e.date)::date,
           coalesce((to_jsonb(e) ->> 'closing')::boolean, false),
           coalesce(sum(e.amount) filter (where e.amount > 0), 0),
           coalesce(sum(e.amount) filter (where e.amount < 0), 0), true
      from ledger_entries e group by 1, 2, 3, 4`);

  await knex.raw(
    `create index ledger_entries_company_date_cover on ledger_entries (company_id, date) include (account_id, amount)`,
  );
  await knex.raw(
    `create index ledger_entries_company_account_date_cover on ledger_entries (company_id, account_id, date) ` +
      `include (amount)`,
  );
  await knex.raw(`drop index if exists ledger_entries_company_id_account_id_date_index`);
  await knex.raw(`drop index if exists ledger_entries_company_id_date_index`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `create index if not exists ledger_entries_company_id_account_id_date_index on ledger_entries (company_id, ` +
      `account_id, date)`,
  );
  await knex.raw(
    `create index if not exists ledger_entries_company_id_date_index on ledger_entries (company_id, date)`,
  );
  await knex.raw(`drop index if exists ledger_entries_company_account_date_cover`);
  await knex.raw(`drop index if exists ledger_entries_company_date_cover`);
  for (const op of ['insert', 'delete', 'update'])
    await knex.raw(`drop trigger if exists ledger_balances_${op} on ledger_entries`);
  await knex.raw(`drop function if exists ledger_balances_delta()`);
  await knex.schema.dropTableIfExists('ledger_balances');
}
