import type { Tx } from './knex.ts';
import { DEFAULT_NUMBER_FORMATS, formatNumber } from '../domain/numbering.ts';
import type { Company } from './companies.ts';

/**
 * Next number of a company's sequence. The upsert takes a row lock, so concurrent
 * transactions get distinct values; a rolled-back transaction gives its number back.
 */
export async function nextNumber(tx: Tx, company: Company, kind: string): Promise<string> {
  const { rows } = await tx.raw(
    `insert into sequences (company_id, kind, next_value) values (?, ?, 2)
     on conflict (company_id, kind) do update set next_value = sequences.next_value + 1
     returning next_value - 1 as value`,
    [company.id, kind],
  );
  const formats = (company.settings.number_formats ?? {}) as Record<string, string>;
  return formatNumber(formats[kind] ?? DEFAULT_NUMBER_FORMATS[kind] ?? '{000000}', Number(rows[0].value));
}
