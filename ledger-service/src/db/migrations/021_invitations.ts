import type { Knex } from 'knex';

/**
 * Invitations to become a member (modules/members, docs/rest-api.md "Members and invitations"):
 * an owner or admin invites an e-mail address with a role and approval limit; the person, signed
 * in with that address, accepts, and only then is a member. Only the SHA-256 of the link's token
 * is kept. `invitations` is a directory table like `memberships` (a shared reference table, no
 * tenant policy): a person's pending invitations are read across companies before any company
 * is chosen. One pending invitation per company and address (a partial unique index).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('role').notNullable();
    t.decimal('approval_limit', 20, 6);
    t.text('token_hash').notNullable().unique();
    t.bigInteger('invited_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('accepted_at', { useTz: true });
    t.bigInteger('accepted_by').references('users.id').onDelete('SET NULL');
    t.timestamp('withdrawn_at', { useTz: true });
  });
  await knex.raw(
    `create unique index invitations_pending_once on invitations (company_id, email)
      where accepted_at is null and withdrawn_at is null`,
  );
  await knex.raw(
    `create index invitations_email on invitations (email) where accepted_at is null and withdrawn_at is null`,
  );
  await knex.raw(`grant select, insert, update, delete on invitations to ledger_app`);
  await knex.raw(`grant usage, select on sequence invitations_id_seq to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invitations');
}
