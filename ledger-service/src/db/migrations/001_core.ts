import type { Knex } from 'knex';
import { ensureRole } from '../roles.ts';
import { enableTenantRls } from './rls.ts';

/** Companies, people, keys (system tables) and the master data every company has (books tables). */
export async function up(knex: Knex): Promise<void> {
  await ensureRole(knex, 'ledger_app');

  await knex.schema.createTable('companies', (t) => {
    t.bigIncrements('id');
    t.text('dataset').notNullable().unique();
    t.text('name').notNullable();
    t.specificType('base_currency', 'char(3)').notNullable();
    t.date('closed_until');
    t.boolean('ai_connections_enabled').notNullable().defaultTo(false);
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.text('email').notNullable().unique();
    t.text('name').notNullable();
    t.text('password_hash').notNullable();
    t.text('totp_secret_enc').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('memberships', (t) => {
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.decimal('approval_limit', 20, 6);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'user_id']);
  });
  await knex.raw(`alter table memberships add constraint memberships_role_check
    check (role in ('owner','admin','accountant','clerk','viewer'))`);

  await knex.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('label').notNullable();
    t.text('key_hash').notNullable().unique();
    t.text('key_prefix').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
  });

  // ---- books tables: every one carries company_id and is under RLS ----
  await knex.schema.createTable('accounts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('accno').notNullable();
    t.text('description').notNullable();
    t.specificType('category', 'char(1)').notNullable(); // A L Q I E
    t.text('link').notNullable().defaultTo(''); // SQL-Ledger link attributes, colon separated
    t.unique(['company_id', 'accno']);
  });

  await knex.schema.createTable('taxes', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('account_id').notNullable().references('accounts.id');
    t.text('code').notNullable();
    t.text('description').notNullable();
    t.decimal('rate', 10, 6).notNullable();
    t.date('valid_from').notNullable();
    t.date('valid_to');
  });

  await knex.schema.createTable('sequences', (t) => {
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.bigInteger('next_value').notNullable().defaultTo(1);
    t.primary(['company_id', 'kind']);
  });

  await knex.schema.createTable('parties', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('vc').notNullable(); // vendor | customer
    t.text('number').notNullable();
    t.text('name').notNullable();
    t.text('address1');
    t.text('street');
    t.text('zipcode');
    t.text('city');
    t.specificType('country', 'char(2)');
    t.text('email');
    t.text('phone');
    t.specificType('currency', 'char(3)');
    t.text('taxnumber');
    t.integer('terms');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['company_id', 'vc', 'number']);
  });
  await knex.raw(`alter table parties add constraint parties_vc_check check (vc in ('vendor','customer'))`);
  await knex.raw(`create index parties_name_idx on parties (company_id, vc, lower(name))`);

  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('user_id').references('users.id');
    t.text('via').notNullable(); // api_key | cli | ai_connection | system
    t.text('via_id');
    t.text('via_label');
    t.text('entity').notNullable();
    t.text('entity_id');
    t.text('action').notNullable();
    t.jsonb('details');
    t.index(['company_id', 'at']);
  });

  for (const table of ['accounts', 'taxes', 'sequences', 'parties', 'audit_log']) {
    await enableTenantRls(knex, table);
  }

  await knex.raw(`grant usage on schema public to ledger_app`);
  await knex.raw(`grant select, insert, update, delete on all tables in schema public to ledger_app`);
  await knex.raw(`grant usage, select on all sequences in schema public to ledger_app`);
  // tables and sequences of later migrations get the same grants
  await knex.raw(
    `alter default privileges in schema public grant select, insert, update, delete on tables to ledger_app`,
  );
  await knex.raw(`alter default privileges in schema public grant usage, select on sequences to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'audit_log',
    'parties',
    'sequences',
    'taxes',
    'accounts',
    'api_keys',
    'memberships',
    'users',
    'companies',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
}
