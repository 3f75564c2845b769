import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// NUMERIC and BIGINT arrive as strings: money is converted to Decimal explicitly, never to float.
// int8 ids fit in a JS number for any realistic ledger, so they are parsed as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;
export type Tx = Knex.Transaction;

export function createDb(url: string, opts: { poolMax?: number } = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: opts.poolMax ?? 10 },
  });
}

/** The role the application's tenant transactions run as; row-level security applies to it. */
export const APP_ROLE = 'ledger_app';

/**
 * Runs `fn` in one transaction scoped to one company: the transaction switches to the
 * RLS-bound role and sets `app.company_id`, so every books table only shows that
 * company's rows whatever the queries say. Both settings end with the transaction.
 */
export async function withTenant<T>(db: Db, companyId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.raw(`select set_config('app.company_id', ?, true), set_config('role', ?, true)`, [String(companyId), APP_ROLE]);
    return fn(tx);
  });
}
