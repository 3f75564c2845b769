/**
 * Which tables belong to one company (books tables) and which are shared by all of them
 * (reference tables), and the rules that keep the schema ready to be distributed by
 * `company_id` (Citus: [operations.md](../../../docs/operations.md#past-one-postgres)).
 *
 * A books table is every table of the ledger's schema that is not declared below. It has a
 * `company_id` column, its primary key and every unique constraint or unique index include
 * `company_id`, every foreign key to another books table carries `company_id` on both sides,
 * and the tenant row-level security policy (migrations/rls.ts) is forced on it, so no query
 * of a request's tenant transaction sees a second company's rows. Reference tables are the
 * directory every request needs before it knows its company (who is signing in, which company
 * a dataset or an API key names): on Citus they are copied to every node. They may point at
 * each other, never into the books (a reference table cannot reference a distributed one).
 *
 * `tenancy.test.ts` checks the live catalog against these rules after all migrations, so a new
 * table or key that breaks them fails the tests; a new shared table is added here on purpose.
 */
import type { Db } from './knex.ts';

/**
 * Tables shared by all companies (Citus reference tables). `api_keys` rows each belong to a
 * company, yet a key is found by its hash before the company is known: its keys are its own
 * id and a hash unique across all companies, and its queries filter by company themselves
 * (db/apiKeys.ts; db/apiKeys.test.ts).
 */
export const REFERENCE_TABLES: readonly string[] = [
  'companies',
  'users',
  'memberships',
  'invitations',
  'api_keys',
  'knex_migrations',
  'knex_migrations_lock',
];

/** The column books tables are distributed by. */
export const DISTRIBUTION_COLUMN = 'company_id';

interface TableRow {
  table: string;
  has_company: boolean;
  company_not_null: boolean;
  rls: boolean;
  forced: boolean;
  tenant_policy: boolean;
}

interface KeyRow {
  table: string;
  name: string;
  kind: string;
  columns: string[];
}

interface ForeignKeyRow {
  table: string;
  name: string;
  ref_table: string;
  columns: string[];
  ref_columns: string[];
}

/** Every breach of the rules above in the connected database's current schema, one sentence each (empty: ready). */
export async function shardingViolations(
  db: Db,
  referenceTables: readonly string[] = REFERENCE_TABLES,
): Promise<string[]> {
  const reference = new Set(referenceTables);
  const { rows: tables } = await db.raw<{ rows: TableRow[] }>(
    `select c.relname as table,
            a.attname is not null as has_company, coalesce(a.attnotnull, false) as company_not_null,
            c.relrowsecurity as rls, c.relforcerowsecurity as forced,
            exists (select 1 from pg_policy p where p.polrelid = c.oid
                     and pg_get_expr(p.polqual, p.polrelid) like '%company_id%'
                     and pg_get_expr(p.polwithcheck, p.polrelid) like '%company_id%') as tenant_policy
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_attribute a on a.attrelid = c.oid and a.attname = ? and not a.attisdropped
      where n.nspname = current_schema() and c.relkind in ('r', 'p')
      order by 1`,
    [DISTRIBUTION_COLUMN],
  );
  // unique constraints and primary keys come with an index; unique indexes without a constraint are read from pg_index
  const { rows: keys } = await db.raw<{ rows: KeyRow[] }>(
    `select t.relname as table, i.relname as name,
            coalesce(con.contype::text, 'i') as kind,
            array(select coalesce(a.attname, '(expression)') from unnest(x.indkey) with ordinality k(attnum, n)
                    left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
                      order by k.n)::text[] as columns
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
       left join pg_constraint con on con.conindid = x.indexrelid and con.contype in ('p', 'u', 'x')
      where n.nspname = current_schema() and (x.indisunique or x.indisprimary or con.contype = 'x')
      order by 1, 2`,
  );
  const { rows: fks } = await db.raw<{ rows: ForeignKeyRow[] }>(
    `select t.relname as table, c.conname as name, r.relname as ref_table,
            array(select a.attname from unnest(c.conkey) with ordinality k(attnum, n)
                    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
                      order by k.n)::text[] as columns,
            array(select a.attname from unnest(c.confkey) with ordinality k(attnum, n)
                    join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum
                      order by k.n)::text[] as ref_columns
       from pg_constraint c
       join pg_class t on t.oid = c.conrelid
       join pg_class r on r.oid = c.confrelid
       join pg_namespace n on n.oid = t.relnamespace
      where c.contype = 'f' and n.nspname = current_schema()
      order by 1, 2`,
  );

  const out: string[] = [];
  const isBooks = (name: string) => !reference.has(name);
  // a table without company_id is reported once, not again for each of its keys
  const withoutCompany = new Set(tables.filter((t) => !t.has_company).map((t) => t.table));
  for (const t of tables) {
    if (!isBooks(t.table)) continue;
    if (!t.has_company) {
      out.push(`table ${t.table} has no ${DISTRIBUTION_COLUMN} and is not declared a reference table (db/tenancy.ts)`);
      continue;
    }
    if (!t.company_not_null) out.push(`table ${t.table}: ${DISTRIBUTION_COLUMN} may be null`);
    if (!t.rls || !t.forced || !t.tenant_policy) {
      out.push(`table ${t.table}: the tenant row-level security policy is not forced on it (migrations/rls.ts)`);
    }
  }
  for (const k of keys) {
    if (!isBooks(k.table) || withoutCompany.has(k.table) || k.columns.includes(DISTRIBUTION_COLUMN)) continue;
    const what =
      k.kind === 'p'
        ? 'primary key'
        : k.kind === 'x'
          ? 'exclusion constraint'
          : k.kind === 'u'
            ? 'unique constraint'
            : 'unique index';
    out.push(`${what} ${k.name} on ${k.table} (${k.columns.join(', ')}) does not include ${DISTRIBUTION_COLUMN}`);
  }
  for (const fk of fks) {
    const from = isBooks(fk.table);
    const to = isBooks(fk.ref_table);
    if (!from && to) {
      out.push(`foreign key ${fk.name}: reference table ${fk.table} points into books table ${fk.ref_table}`);
    } else if (from && to) {
      const i = fk.columns.indexOf(DISTRIBUTION_COLUMN);
      if (i < 0 || fk.ref_columns[i] !== DISTRIBUTION_COLUMN) {
        out.push(
          `foreign key ${fk.name} on ${fk.table} (${fk.columns.join(', ')}) → ${fk.ref_table} (` +
            `${fk.ref_columns.join(', ')}) does not match ${DISTRIBUTION_COLUMN} to ${DISTRIBUTION_COLUMN}`,
        );
      }
    }
  }
  return out;
}
