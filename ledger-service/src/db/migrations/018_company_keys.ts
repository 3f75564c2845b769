import type { Knex } from 'knex';

/**
 * Ready to shard by company: every books table's primary key and unique constraints lead with
 * `company_id`, and every foreign key between books tables carries it, so each table can be
 * distributed by `company_id` (Citus) with all of one company's rows on one node and every
 * foreign key checked on that node ([operations.md](../../../../docs/operations.md#past-one-postgres)).
 *
 * Books tables are the tables under the tenant row-level security policy (every table with a
 * `company_id` column at this migration except the directory: `memberships` and `api_keys`,
 * which stay shared reference tables with `companies` and `users`). The list is read from
 * the catalog at run time and frozen by what migrations 001–017 made, so this runs the same on
 * a fresh database and on one holding years of books. One transaction (knex's default): a
 * database whose rows already cross companies (a line of company A pointing at a document of
 * company B) stops with the name of the foreign key that refuses them, and nothing changes.
 *
 * `companies.invoice_bank_account_id` loses its foreign key: `companies` is a reference table
 * (on every node), and a reference table may not point into a distributed one. The company
 * service checks the bank account when the setting is written, and bank accounts are never
 * deleted but with their company.
 */
const DIRECTORY = ['companies', 'users', 'memberships', 'api_keys'];

interface ForeignKey {
  name: string;
  table: string;
  refTable: string;
  cols: string[];
  refCols: string[];
  onDelete: string;
  onUpdate: string;
}

const ACTIONS: Record<string, string> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

async function booksTables(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { table: string }[] }>(
    `select c.relname as table from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id'
          and not a.attisdropped)
        and c.relname <> all(array(select jsonb_array_elements_text(?::jsonb)))
      order by 1`,
    [JSON.stringify(DIRECTORY)],
  );
  return rows.map((r) => r.table);
}

async function columnsOf(knex: Knex, conoid: number, which: 'conkey' | 'confkey'): Promise<string[]> {
  const relCol = which === 'conkey' ? 'conrelid' : 'confrelid';
  const { rows } = await knex.raw<{ rows: { name: string }[] }>(
    `select a.attname as name from pg_constraint c, unnest(c.${which}) with ordinality k(attnum, n)
       join pg_attribute a on a.attnum = k.attnum
      where c.oid = ? and a.attrelid = c.${relCol} order by k.n`,
    [conoid],
  );
  return rows.map((r) => r.name);
}

export async function up(knex: Knex): Promise<void> {
  const books = await booksTables(knex);

  // the one foreign key from the directory into the books (see the header)
  const { rows: companyFks } = await knex.raw<{ rows: { conname: string }[] }>(
    `select conname from pg_constraint where contype = 'f' and conrelid = 'companies'::regclass and confrelid ` +
      `= 'bank_accounts'::regclass`,
  );
  for (const fk of companyFks) await knex.raw(`alter table companies drop constraint ??`, [fk.conname]);

  // 1. foreign keys between books tables, remembered and dropped (they hang on the keys changed below)
  const { rows: fkRows } = await knex.raw<{
    rows: { oid: number; name: string; table: string; ref_table: string; del: string; upd: string }[];
  }>(
    `select c.oid, c.conname as name, c.conrelid::regclass::text as table, c.confrelid::regclass::text as ref_table,
            c.confdeltype as del, c.confupdtype as upd
       from pg_constraint c
      where c.contype = 'f' and c.conrelid::regclass::text = any(array(select jsonb_array_elements_text(?::jsonb)))
        and c.confrelid::regclass::text = any(array(select jsonb_array_elements_text(?::jsonb)))
      order by c.conname`,
    [JSON.stringify(books), JSON.stringify(books)],
  );
  const fks: ForeignKey[] = [];
  for (const r of fkRows) {
    fks.push({
      name: r.name,
      table: r.table,
      refTable: r.ref_table,
      cols: await columnsOf(knex, r.oid, 'conkey'),
      refCols: await columnsOf(knex, r.oid, 'confkey'),
      onDelete: r.del,
      onUpdate: r.upd,
    });
  }
  for (const fk of fks) await knex.raw(`alter table ?? drop constraint ??`, [fk.table, fk.name]);

  // 2. primary keys and unique constraints without company_id: the same columns behind company_id
  const { rows: keys } = await knex.raw<{ rows: { oid: number; name: string; table: string; type: string }[] }>(
    `select c.oid, c.conname as name, c.conrelid::regclass::text as table, c.contype as type
       from pg_constraint c
      where c.contype in ('p', 'u')
        and c.conrelid::regclass::text = any(array(select jsonb_array_elements_text(?::jsonb)))
        and not exists (select 1 from pg_attribute a where a.attrelid = c.conrelid and a.attnum = any(c.conkey)
          and a.attname = 'company_id')
      order by c.conname`,
    [JSON.stringify(books)],
  );
  for (const key of keys) {
    const cols = await columnsOf(knex, key.oid, 'conkey');
    const kind = key.type === 'p' ? 'primary key' : 'unique';
    await knex.raw(`alter table ?? drop constraint ??`, [key.table, key.name]);
    await knex.raw(`alter table ?? add constraint ?? ${kind} (${['company_id', ...cols].map(() => '??').join(', ')})`, [
      key.table,
      key.name,
      'company_id',
      ...cols,
    ]);
  }
  // bank_accounts (company_id, id) was a unique key only for the foreign key from companies; the primary key is it now
  const { rows: twins } = await knex.raw<{ rows: { name: string }[] }>(
    `select u.conname as name from pg_constraint u join pg_constraint p on p.conrelid = u.conrelid and p.contype = 'p'
      where u.contype = 'u' and u.conrelid = 'bank_accounts'::regclass and u.conkey::int[] @> p.conkey::int[]
        and p.conkey::int[] @> u.conkey::int[]`,
  );
  for (const twin of twins) await knex.raw(`alter table bank_accounts drop constraint ??`, [twin.name]);

  // 3. the foreign keys again, with company_id on both sides; "set null" empties only the reference, never company_id
  for (const fk of fks) {
    const cols = fk.cols.includes('company_id') ? fk.cols : ['company_id', ...fk.cols];
    const refCols = fk.refCols.includes('company_id') ? fk.refCols : ['company_id', ...fk.refCols];
    const own = fk.cols.filter((c) => c !== 'company_id');
    const del = ACTIONS[fk.onDelete] ?? 'no action';
    const onDelete = del === 'set null' || del === 'set default' ? `${del} (${own.map(() => '??').join(', ')})` : del;
    await knex.raw(
      `alter table ?? add constraint ?? foreign key (${cols.map(() => '??').join(', ')})
         references ?? (${refCols.map(() => '??').join(', ')}) on delete ${onDelete}
           on update ${ACTIONS[fk.onUpdate] ?? 'no action'}`,
      [
        fk.table,
        fk.name,
        ...cols,
        fk.refTable,
        ...refCols,
        ...(del === 'set null' || del === 'set default' ? own : []),
      ],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  // Going back would drop company_id from keys that may by then hold equal ids in two companies; not supported.
  throw new Error(`018_company_keys cannot be undone (${knex.client.config.client}): restore a backup taken before it`);
}
