import type { Knex } from 'knex';

/**
 * `ledger_check(ok, code)`: true when `ok` is true, else an error with the SQLSTATE `code`.
 *
 * A statement sent in the same message as others (one simple query: `BEGIN; …; COMMIT`) cannot
 * stop the ones after it by answering false — only by failing, which makes Postgres skip the
 * rest of the message, `COMMIT` included. The tenant transaction uses it where a bill goes to
 * Postgres as one message (db/tenantTransaction.ts): a remembered API key's guard and the
 * check that the rule snapshot a bill was computed against is still what the database holds
 * fail the message instead of letting it commit. The codes (class `LG`, none of Postgres's
 * own) are named in tenantTransaction.ts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create or replace function ledger_check(ok boolean, code text) returns boolean
    language plpgsql volatile as $$
    begin
      if ok is not true then
        raise exception 'ledger check failed: %', code using errcode = code;
      end if;
      return true;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists ledger_check(boolean, text)');
}
