import type { Knex } from 'knex';

/**
 * arap_files.sha256: the hex SHA-256 of the bytes, so a file whose name and content equal
 * an existing attachment of the document is recognised without reading the stored data
 * (a client sending the complete document back must not attach its files twice).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('arap_files', (t) => {
    t.text('sha256');
  });
  await knex.raw(`update arap_files set sha256 = encode(sha256(data), 'hex')`);
  await knex.raw('alter table arap_files alter column sha256 set not null');
  await knex.schema.alterTable('arap_files', (t) => {
    t.index(['transaction_id', 'sha256']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('arap_files', (t) => {
    t.dropIndex(['transaction_id', 'sha256']);
    t.dropColumn('sha256');
  });
}
