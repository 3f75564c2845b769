import type { Knex } from 'knex';

/**
 * The role the requests run as (`ledger_app`, db/tenantTransaction.ts) cannot bypass
 * row-level security and holds the table rights on every table, whoever created it.
 *
 * Migration 001 created the role with the defaults (NOSUPERUSER, NOBYPASSRLS, NOLOGIN) and
 * granted the rights through default privileges, which cover only the tables the migrating
 * role itself creates; a role made beforehand by an operator (the compose set-up,
 * deploy/postgres-roles.sh) or tables created by another owner are brought in line here. The
 * attributes can only be changed by a superuser: a non-superuser owner leaves them as they
 * are, and the start refuses a role that could bypass row-level security (naming it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    do $$ begin
      if (select rolsuper from pg_roles where rolname = current_user) then
        alter role ledger_app nosuperuser nobypassrls nologin;
      end if;
    end $$;`);
  await knex.raw(`grant usage on schema public to ledger_app`);
  await knex.raw(`grant select, insert, update, delete on all tables in schema public to ledger_app`);
  await knex.raw(`grant usage, select on all sequences in schema public to ledger_app`);
}

export async function down(): Promise<void> {
  // nothing to undo: the rights and attributes are what 001 meant the role to have
}
