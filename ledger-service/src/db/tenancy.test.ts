/**
 * The schema stays ready to shard by company: the catalog of a database migrated to the
 * latest migration breaks none of the rules of db/tenancy.ts, migration 018 carries a
 * database holding books across (rows kept, cross-company references refused after it), and a
 * deliberately broken migration applied to a scratch database is found by the same check.
 * Each case makes its own database (the check reads a whole schema; the shared test database
 * may hold other runs' tables half-made); one that starts migrated is a copy of the run's template.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, type Db } from './knex.ts';
import { migrateSerialised } from '@ledger/shared/migrate';
import { migrationSource } from './migrations/index.ts';
import { REFERENCE_TABLES, shardingViolations } from './tenancy.ts';
import { createCompany } from './companies.ts';
import { copyOfTemplate, recreateDatabase, templateUrl } from '../../../scripts/database.ts';

// as test/helpers.ts names it; not imported from there, which loads the whole ledger
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

type Migration = { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> };

/** An empty database, or with `migrated` a copy of the run's migrated template (scripts/database.ts). */
async function scratchDb(t: { teardown(fn: () => unknown): void }, tag: string, migrated = false): Promise<Db> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${url.pathname.slice(1)}_${tag}_${randomBytes(4).toString('hex')}`;
  if (migrated) await copyOfTemplate(url.toString(), templateUrl(TEST_DATABASE_URL));
  else await recreateDatabase(url.toString());
  const db = createDb(url.toString(), { poolMax: 2 });
  t.teardown(async () => {
    await db.destroy();
    const admin = createDb(Object.assign(new URL(url), { pathname: '/postgres' }).toString(), { poolMax: 1 });
    await admin.raw(`drop database if exists ?? with (force)`, [url.pathname.slice(1)]);
    await admin.destroy();
  });
  return db;
}

/** The real migrations up to (excluding) `before`, plus any extra ones after them. */
async function sourceOf(
  before: string | null,
  extra: Record<string, Migration> = {},
): Promise<Knex.MigrationSource<string>> {
  const all = await migrationSource.getMigrations([]);
  const names = before === null ? all : all.slice(0, all.indexOf(before));
  const own: Record<string, Migration> = {};
  for (const n of names) own[n] = (await migrationSource.getMigration(n)) as Migration;
  Object.assign(own, extra);
  return {
    getMigrations: async () => Object.keys(own),
    getMigrationName: (n) => n,
    getMigration: async (n) => own[n]!,
  };
}

t.test('a database migrated to the latest migration is ready to shard by company', async (t) => {
  const db = await scratchDb(t, 'shard', true);
  await migrateSerialised(db, migrationSource, 'ledger-service migrations');
  t.same(await shardingViolations(db), [], 'no table, key or foreign key breaks the rules');
  const { rows } = await db.raw<{ rows: { n: number }[] }>(
    `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = current_schema() and c.relkind = 'r' and c.relname <> all(?::text[])`,
    [`{${REFERENCE_TABLES.join(',')}}`],
  );
  t.ok(rows[0]!.n >= 25, `the rules were checked on the books tables (${rows[0]!.n})`);
});

/**
 * Two companies made by today's createCompany on a schema before migration 026, whose tax codes
 * carry kind and figure and whose accounts carry their names (045): the columns exist only while
 * the companies are made.
 */
async function companiesBefore026(db: Parameters<typeof createCompany>[0]) {
  await db.raw('alter table taxes add column kind text, add column figure text');
  await db.raw('alter table accounts add column names jsonb');
  const a = await createCompany(db, { dataset: `a-${randomBytes(3).toString('hex')}`, name: 'A' });
  const b = await createCompany(db, { dataset: `b-${randomBytes(3).toString('hex')}`, name: 'B' });
  await db.raw('alter table taxes drop column kind, drop column figure');
  await db.raw('alter table accounts drop column names');
  return [a, b] as const;
}

t.test(
  'migration 018 on a database with books: rows kept, keys by company, cross-company references refused',
  async (t) => {
    const db = await scratchDb(t, 'shard_data');
    await migrateSerialised(db, await sourceOf('018_company_keys'), 'before 018');
    const [a, b] = await companiesBefore026(db);
    // books written as the ledger writes them (the superuser connection passes row-level security)
    const account = async (companyId: number) =>
      Number(((await db('accounts').where({ company_id: companyId }).orderBy('id').first('id')) as { id: number }).id);
    const [je] = await db('gl_transactions')
      .insert({
        company_id: a.id,
        reference: 'GL-1',
        transdate: '2026-01-05',
        description: 'opening',
        currency: 'CHF',
        status: 'posted',
      })
      .returning('id');
    await db('gl_lines').insert([
      {
        company_id: a.id,
        journal_id: je.id,
        position: 1,
        account_id: await account(a.id),
        debit: '10',
        base_amount: '10',
      },
      {
        company_id: a.id,
        journal_id: je.id,
        position: 2,
        account_id: await account(a.id),
        credit: '10',
        base_amount: '-10',
      },
    ]);
    const [doc] = await db('documents')
      .insert({
        company_id: a.id,
        sha256: 'a'.repeat(64),
        name: 'x.pdf',
        media_type: 'application/pdf',
        size: 1,
        source: 'upload',
      })
      .returning('id');
    await db('document_contents').insert({ company_id: a.id, document_id: doc.id, data: Buffer.from('x') });
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ['gl_transactions', 'gl_lines', 'documents', 'document_contents', 'accounts', 'taxes'].map(async (table) => [
            table,
            Number(((await db(table).count({ n: '*' }).first()) as { n: string }).n),
          ]),
        ),
      );
    const before = await counts();

    await migrateSerialised(db, migrationSource, 'ledger-service migrations');
    t.same(await counts(), before, 'every row is still there');
    t.same(await shardingViolations(db), [], 'the migrated database is ready to shard');
    await t.rejects(
      db('gl_lines').insert({
        company_id: b.id,
        journal_id: je.id,
        position: 3,
        account_id: await account(b.id),
        debit: '1',
        base_amount: '1',
      }),
      { code: '23503' },
      "a line of company B cannot point at company A's journal entry",
    );
    await db('gl_transactions').where({ id: je.id }).delete();
    t.equal(Number(((await db('gl_lines').count({ n: '*' }).first()) as { n: string }).n), 0, 'delete still cascades');
  },
);

t.test('migration 018 stops, changing nothing, on books whose rows already cross companies', async (t) => {
  const db = await scratchDb(t, 'shard_cross');
  await migrateSerialised(db, await sourceOf('018_company_keys'), 'before 018');
  const [a, b] = await companiesBefore026(db);
  const [je] = await db('gl_transactions')
    .insert({
      company_id: a.id,
      reference: 'GL-1',
      transdate: '2026-01-05',
      description: 'x',
      currency: 'CHF',
      status: 'posted',
    })
    .returning('id');
  const accountB = (await db('accounts').where({ company_id: b.id }).first('id')) as { id: number };
  await db('gl_lines').insert({
    company_id: b.id,
    journal_id: je.id,
    position: 1,
    account_id: accountB.id,
    debit: '1',
    base_amount: '1',
  });

  await t.rejects(
    migrateSerialised(db, migrationSource, 'ledger-service migrations'),
    /gl_lines/,
    'the refusing foreign key is named',
  );
  const applied = (await db('knex_migrations').pluck('name')) as string[];
  t.notOk(applied.includes('018_company_keys'), '018 is not recorded');
  const { rows } = await db.raw<{ rows: { def: string }[] }>(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'gl_lines'::regclass and ` +
      `contype = 'p'`,
  );
  t.equal(rows[0]!.def, 'PRIMARY KEY (id)', 'the keys are as before (one transaction)');
});

t.test('a deliberately broken migration is found by the catalog check', async (t) => {
  const db = await scratchDb(t, 'shard_broken', true);
  const broken: Migration = {
    async up(k) {
      // a books table keyed by id alone, with a unique constraint and a foreign key without company_id
      await k.raw(`create table broken_notes (
        id bigserial primary key,
        company_id bigint not null references companies(id),
        journal_id bigint not null,
        code text not null unique)`);
      await k.raw(`alter table gl_transactions add constraint gl_transactions_id_only unique (id)`);
      await k.raw(
        `alter table broken_notes add constraint broken_notes_journal foreign key (journal_id) references ` +
          `gl_transactions(id)`,
      );
      await k.raw(`create unique index broken_notes_code_lower on broken_notes (lower(code))`);
      // a table shared by all companies that nobody declared, and a reference table pointing into the books
      await k.raw(`create table undeclared_settings (key text primary key, value text)`);
      await k.raw(`alter table users add column home_account_id bigint, add column home_company_id bigint`);
      await k.raw(
        `alter table users add constraint users_home_account foreign key (home_company_id, home_account_id) ` +
          `references accounts(company_id, id)`,
      );
    },
    async down() {},
  };
  await migrateSerialised(db, await sourceOf(null, { '999_broken': broken }), 'with a broken migration');
  const found = await shardingViolations(db);
  const expect = [
    /^primary key broken_notes_pkey on broken_notes \(id\) does not include company_id$/,
    /^unique constraint broken_notes_code_key on broken_notes \(code\)/,
    /^unique index broken_notes_code_lower on broken_notes/,
    /^unique constraint gl_transactions_id_only on gl_transactions \(id\)/,
    /^foreign key broken_notes_journal on broken_notes \(journal_id\) → gl_transactions \(id\)/,
    /^table broken_notes: the tenant row-level security policy is not forced/,
    /^table undeclared_settings has no company_id and is not declared a reference table/,
    /^foreign key users_home_account: reference table users points into books table accounts$/,
  ];
  for (const re of expect)
    t.ok(
      found.some((v) => re.test(v)),
      `found: ${re.source}`,
    );
  t.equal(found.length, expect.length, `nothing else is reported:\n${found.join('\n')}`);
});
