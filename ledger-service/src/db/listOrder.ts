import { parseSort } from '@ledger/shared';

/**
 * ORDER BY for a validated `sort` value (the query schema's enum allows only known keys):
 * the key's expression, then the tie-breaker in the same direction, so pages are stable.
 * Expressions come from the caller's fixed map, never from the request.
 */
export function orderBySql(sort: string, expressions: Record<string, string>, tieBreaker: string): string {
  const { key, descending } = parseSort(sort);
  const expression = expressions[key];
  if (!expression) throw new Error(`unknown sort key ${key}`);
  const dir = descending ? 'desc' : 'asc';
  return expression === tieBreaker ? `${expression} ${dir}` : `${expression} ${dir}, ${tieBreaker} ${dir}`;
}

/** Rows of one page and the number of rows all pages hold (the list's X-Total-Count). */
export interface ListPage<T> {
  rows: T[];
  total: number;
}

/** The page of a list computed in memory (a few rows, e.g. the fiscal years): sliced as SQL's limit/offset would. */
export function pageOf<T>(rows: readonly T[], page: { limit: number; offset: number }): ListPage<T> {
  return { rows: rows.slice(page.offset, page.offset + page.limit), total: rows.length };
}
