import type { Knex } from 'knex';

/**
 * Row-level security for a books table: only rows of the company set in
 * `app.company_id` for the current transaction are visible or writable. Without the
 * setting no row matches. FORCE applies the policy to the table owner as well.
 */
export async function enableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw(`alter table ?? enable row level security`, [table]);
  await knex.raw(`alter table ?? force row level security`, [table]);
  await knex.raw(
    `create policy tenant_isolation on ??
       using (company_id = nullif(current_setting('app.company_id', true), '')::bigint)
     with check (company_id = nullif(current_setting('app.company_id', true), '')::bigint)`,
    [table],
  );
}
