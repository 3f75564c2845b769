import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * The confirmations AI connections have used (kernel/confirmation.ts, docs/mcp.md
 * "Confirmation"): a write that posts, pays, sends or deletes, made by an assistant, carries
 * a token the ledger handed out with its preview; the token's row is inserted in the write's
 * own transaction, keyed by the token's SHA-256, so a token confirms one write only (a second
 * use meets the primary key). A row is kept until its token expires, then purged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assistant_confirmations', (t) => {
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('token_hash').notNullable();
    t.text('connection_id').notNullable();
    t.text('tool').notNullable();
    t.timestamp('used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'token_hash']);
    t.index(['company_id', 'expires_at']);
  });
  await enableTenantRls(knex, 'assistant_confirmations');
  await knex.raw(`grant select, insert, update, delete on assistant_confirmations to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('assistant_confirmations');
}
