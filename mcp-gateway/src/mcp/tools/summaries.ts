/** The one-line texts a tool returns beside its structured result ("Found 3 vendors."). */
import type { ToolInput } from './declare.ts';
import { isRecord } from './isRecord.ts';

export function countOf(result: unknown): number {
  return Array.isArray(result) ? result.length : 0;
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function idOf(result: unknown, input: ToolInput): string {
  if (isRecord(result) && (typeof result.id === 'number' || typeof result.id === 'string')) return String(result.id);
  return input.id === undefined ? '?' : String(input.id);
}

export function nameOf(result: unknown): string {
  if (!isRecord(result)) return '';
  const name = result.name ?? result.description ?? result.invnumber ?? result.invNumber;
  return typeof name === 'string' && name ? ` (${name})` : '';
}

export const summaries = {
  list: (noun: string) => (result: unknown) => `Found ${plural(countOf(result), noun)}.`,
  get: (noun: string) => (result: unknown, input: ToolInput) =>
    `${noun[0]!.toUpperCase()}${noun.slice(1)} ${idOf(result, input)}${nameOf(result)}.`,
  created: (noun: string) => (result: unknown, input: ToolInput) => `Created ${noun} ${idOf(result, input)}.`,
  updated: (noun: string) => (result: unknown, input: ToolInput) => `Updated ${noun} ${idOf(result, input)}.`,
};
