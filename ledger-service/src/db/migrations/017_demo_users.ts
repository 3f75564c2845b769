import type { Knex } from 'knex';

/**
 * `users.demo`: the user was made by `ledger demo` (or the demo of a first `npm start`).
 * `ledger totp <email>` prints the current second-factor code only for such users (or on the
 * embedded development database), so a production database never hands out a real person's
 * codes from the command line.
 *
 * Demo owners made before this column are found by what the demo recorded: the owner
 * `owner@<dataset>.example.com` of a company whose creation was audited with `demo: true`.
 * The audit log is under row-level security, which a superuser (the embedded database's
 * role, the usual migrating role) passes; a migrating role that does not, marks none of them,
 * and only `ledger totp` is refused for those older demos.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table users add column demo boolean not null default false`);
  await knex.raw(`
    update users u set demo = true
      from memberships m
      join companies c on c.id = m.company_id
      join audit_log a on a.company_id = c.id and a.entity = 'company' and a.action = 'create'
        and a.details->>'demo' = 'true'
     where m.user_id = u.id and m.role = 'owner' and u.email = 'owner@' || c.dataset || '.example.com'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table users drop column demo`);
}
