import type { Knex } from 'knex';

/**
 * A cluster-wide role the ledger's migrations need (`ledger_app`, `ledger_sweeper`), made once
 * and granted to the migrating user. Roles belong to the Postgres cluster, not to a database, so
 * two databases migrated at the same moment on a fresh cluster (two test runs, a bench beside the
 * suite, two stacks) both find the role missing and both create it: the second `create role`
 * fails with a unique violation on pg_authid (or duplicate_object), which is the outcome it
 * wanted. That one refusal is taken as "it exists"; any other error still fails the migration.
 * The grant may be refused where the migrating user cannot grant (a managed database where an
 * administrator made the role): the role then serves as the set-up made it.
 */
export async function ensureRole(knex: Knex, role: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(role)) throw new Error(`ensureRole: not a plain role name: ${role}`);
  await knex.raw(`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${role}') then
        begin
          create role ${role} nologin;
        exception when duplicate_object or unique_violation then null;
        end;
      end if;
      begin
        execute format('grant ${role} to %I', current_user);
      exception when others then null;
      end;
    end $$;`);
}
