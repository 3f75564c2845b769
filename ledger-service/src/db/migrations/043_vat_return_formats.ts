import type { Knex } from 'knex';

/**
 * VAT returns in the ESTV's formats and on received considerations (docs/vat.md):
 * - `vat_return_lines.rate`: the tax rate the document's lines were posted with (for a line
 *   posted without one, its code's rate on the document's date), frozen with the line (the
 *   eCH-0217 file reports turnover per tax rate);
 * - indexes for preparing a return in one aggregate statement: the documents of a period
 *   (`arap_transactions` by company and date, posted ones), their tax ledger lines (by
 *   document, tax lines only), the payments of a period (received considerations);
 * - `vat_return_lines` keeps its rows tied to their return by two statement triggers instead of
 *   row foreign keys: a quarter's 36,000 frozen lines paid two per-row checks (to `companies`
 *   and to `vat_returns`), about 1.7 s of the 2 s target on the shared machine. One check per
 *   inserting statement refuses lines without their return (SQLSTATE 23503, as the foreign key
 *   did); deleting returns deletes their lines (the cascade), and so does deleting a company
 *   (its returns cascade from `companies`). Like the lock's trigger (028), these statement
 *   triggers with transition tables have not been run on a Citus cluster;
 * - the lock of a settled period also refuses a payment of a document with tax when the
 *   settled return counted payments (basis `received`): under received considerations a
 *   payment is what moves turnover and tax into a period.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table vat_return_lines add column rate numeric(9, 6)');
  await knex.raw('alter table vat_return_lines drop constraint vat_return_lines_company_id_foreign');
  await knex.raw('alter table vat_return_lines drop constraint vat_return_lines_company_id_return_id_foreign');
  await knex.raw(`
    create function vat_return_lines_have_return() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from new_rows n
                  where not exists (select 1 from vat_returns r
                                     where r.company_id = n.company_id and r.id = n.return_id))
      then
        raise exception using errcode = '23503', message = 'vat_return_lines: a line without its VAT return';
      end if;
      return null;
    end $$`);
  await knex.raw(`
    create trigger vat_return_lines_have_return after insert on vat_return_lines
      referencing new table as new_rows for each statement execute function vat_return_lines_have_return()`);
  await knex.raw(`
    create function vat_returns_delete_lines() returns trigger language plpgsql as $$
    begin
      delete from vat_return_lines l using gone g where l.company_id = g.company_id and l.return_id = g.id;
      return null;
    end $$`);
  await knex.raw(`
    create trigger vat_returns_delete_lines after delete on vat_returns
      referencing old table as gone for each statement execute function vat_returns_delete_lines()`);
  await knex.raw(
    `create index arap_transactions_vat_period on arap_transactions (company_id, inv_date)
       include (id, vc, type, inv_number, exchangerate) where status in ('posted', 'reversed')`,
  );
  await knex.raw(
    `create index ledger_entries_document_tax on ledger_entries (company_id, transaction_id, account_id)
       include (amount) where kind = 'tax' and transaction_id is not null`,
  );
  await knex.raw('create index arap_payments_company_date on arap_payments (company_id, date)');
  await knex.raw(
    `create index arap_payments_company_reversal on arap_payments (company_id, reversal_date)
       where reversal_date is not null`,
  );
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
          or (n.payment_id is not null and r.basis = 'received'
              and exists (select 1 from arap_payments p
                            join arap_lines l on l.company_id = p.company_id and l.transaction_id = p.transaction_id
                           where p.company_id = n.company_id and p.id = n.payment_id
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
}

export async function down(knex: Knex): Promise<void> {
  // the lock function stays in its wider form (it only adds a case a settled received-basis return needs)
  await knex.raw('drop index if exists arap_payments_company_reversal');
  await knex.raw('drop index if exists arap_payments_company_date');
  await knex.raw('drop index if exists ledger_entries_document_tax');
  await knex.raw('drop index if exists arap_transactions_vat_period');
  await knex.raw('drop trigger if exists vat_returns_delete_lines on vat_returns');
  await knex.raw('drop function if exists vat_returns_delete_lines()');
  await knex.raw('drop trigger if exists vat_return_lines_have_return on vat_return_lines');
  await knex.raw('drop function if exists vat_return_lines_have_return()');
  await knex.raw('alter table vat_return_lines drop column if exists rate');
  await knex.raw(
    `alter table vat_return_lines add constraint vat_return_lines_company_id_foreign foreign key (company_id)
       references companies (id) on delete cascade`,
  );
  await knex.raw(
    `alter table vat_return_lines add constraint vat_return_lines_company_id_return_id_foreign
       foreign key (company_id, return_id) references vat_returns (company_id, id) on delete cascade`,
  );
}
