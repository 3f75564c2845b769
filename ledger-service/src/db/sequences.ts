import type { Tx } from './knex.ts';
import { formatNumber, numberFormatOf } from '../domain/numbering.ts';
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
  return formatNumber(numberFormatOf(company.settings, kind), Number(rows[0].value));
}

/**
 * `count` consecutive numbers of a company's sequence in one statement (a batch's numbering):
 * the same row lock as nextNumber, so single documents numbered meanwhile wait and never get
 * one of these. Formatted in order.
 */
export async function nextNumbers(tx: Tx, company: Company, kind: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  const { rows } = await tx.raw(
    `insert into sequences (company_id, kind, next_value) values (?, ?, ? + 1)
     on conflict (company_id, kind) do update set next_value = sequences.next_value + ?
     returning next_value - ? as first`,
    [company.id, kind, count, count, count],
  );
  const first = Number(rows[0].first);
  const format = numberFormatOf(company.settings, kind);
  return Array.from({ length: count }, (_, i) => formatNumber(format, first + i));
}

/**
 * `count` free numbers of the sequence `kind` (a batch's numbering), taken in one step as
 * nextNumbers takes them; those `taken` reports as used already (given by hand) or listed in
 * `reserved` (the batch's own) are skipped and made up with further ones, as a single document
 * skips them. Formatted, in order.
 */
export async function freeNumbers(
  tx: Tx,
  company: Company,
  kind: string,
  count: number,
  reserved: ReadonlySet<string>,
  taken: (candidates: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const candidates = await nextNumbers(tx, company, kind, count - out.length);
    const used = await taken(candidates);
    out.push(...candidates.filter((n) => !used.has(n) && !reserved.has(n)));
  }
  return out;
}

/** A number format split around its `{0…0}` placeholder (no placeholder: all prefix, width 0). */
function splitNumberFormat(format: string): { prefix: string; width: number; suffix: string } {
  const m = /\{(0+)\}/.exec(format);
  if (!m) return { prefix: format, width: 0, suffix: '' };
  return { prefix: format.slice(0, m.index), width: m[1]!.length, suffix: format.slice(m.index + m[0].length) };
}

/**
 * The CTEs that give a statement writing a new document its number, as `num.<column>`: the
 * caller's own number, or the next value of the company's sequence `kind` formatted as
 * nextNumber formats it. Taking the number inside the writing statement keeps the sequence row
 * locked from there to the commit only. `sql` ends with a comma (more CTEs follow); `bindings`
 * come first in the statement's bindings.
 */
export function numberingCte(
  company: Company,
  number: { own: string } | { sequence: string },
  column: string,
): { sql: string; bindings: (string | number)[] } {
  if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`not an SQL name: ${column}`);
  if ('own' in number) return { sql: `num as (select ?::text as ${column}),`, bindings: [number.own] };
  const { prefix, width, suffix } = splitNumberFormat(numberFormatOf(company.settings, number.sequence));
  return {
    sql: `seq as (insert into sequences (company_id, kind, next_value) values (?, ?, 2)
         on conflict (company_id, kind) do update set next_value = sequences.next_value + 1
         returning (next_value - 1)::text as v),
       num as (select ?::text || lpad(v, greatest(length(v), ?), '0') || ?::text as ${column} from seq),`,
    bindings: [company.id, number.sequence, prefix, width, suffix],
  };
}
