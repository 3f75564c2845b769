import type { Knex } from 'knex';

/**
 * Payment references (the `qr_reference` of posted customer invoices) are numbered from one
 * Postgres sequence instead of a per-company row of `sequences`: `nextval` takes no row lock
 * and is not rolled back, so a reference can be drawn before the document is numbered and
 * concurrent invoice postings do not queue on it. References need to be unique, not gap-free.
 * The sequence starts above every number a company's row has handed out, so no reference
 * issued before is issued again.
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: { next: string | null }[] }>(
    `select max(next_value)::text as next from sequences where kind = 'payment_reference'`,
  );
  const start = BigInt(rows[0]?.next ?? '1');
  await knex.raw(`create sequence if not exists payment_reference_seq start with ${start.toString()}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop sequence if exists payment_reference_seq');
}
