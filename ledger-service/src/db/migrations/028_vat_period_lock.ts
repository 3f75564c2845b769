import type { Knex } from 'knex';

/**
 * The settled VAT period's lock (docs/vat.md "The lock"): a ledger line dated in the period of
 * a settled VAT return is refused when it carries tax, books a tax account, or belongs to a
 * document whose lines use a tax code. One statement trigger on `ledger_entries` guards every
 * path that books (documents, their approval and reversal, journal entries, batches, bank
 * bookings, payments) in one place; it raises SQLSTATE LV001, which the kernel's error
 * middleware answers as 422 vat_period_filed with the trigger's message (it names the return).
 * The settlement's own entry sets `app.vat_settling` for its transaction and passes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function vat_period_lock() returns trigger language plpgsql as $$
    declare
      hit record;
    begin
      if coalesce(current_setting('app.vat_settling', true), '') = '1' then
        return null;
      end if;
      select r.id, r.from_date, r.to_date, n.date into hit
        from new_rows n
        join vat_returns r on r.company_id = n.company_id and r.status = 'settled'
                          and n.date between r.from_date and r.to_date
        join accounts a on a.company_id = n.company_id and a.id = n.account_id
       where n.kind = 'tax'
          or a.link ~ '(^|:)(AR_tax|AP_tax)(:|$)'
          or exists (select 1 from taxes t where t.company_id = n.company_id and t.account_id = n.account_id)
          or (n.transaction_id is not null and n.payment_id is null
              and exists (select 1 from arap_lines l
                           where l.company_id = n.company_id and l.transaction_id = n.transaction_id
                             and l.tax_account_id is not null))
       limit 1;
      if found then
        raise exception using errcode = 'LV001',
          message = format('The VAT return %s for %s to %s is settled: a posting dated %s that carries tax or uses '
                           'a tax code cannot change its period. Book it in an open VAT period or file a correction '
                           '(POST /reports/vat/returns with type "correction").',
                           hit.id, hit.from_date, hit.to_date, hit.date);
      end if;
      return null;
    end $$`);
  await knex.raw(`
    create trigger ledger_entries_vat_period_lock after insert on ledger_entries
      referencing new table as new_rows for each statement execute function vat_period_lock()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists ledger_entries_vat_period_lock on ledger_entries');
  await knex.raw('drop function if exists vat_period_lock()');
}
