import { Money } from '@ledger/shared/money';
import { FileRefused, jobModule, jobRef, type FileJobs } from '../../untrusted/index.ts';
import { parseCamt } from './camt.ts';
import { parseCsv } from './csv.ts';
import type { ParsedStatement, StatementBalance, StatementEntry } from './rules.ts';

/**
 * A statement file, read on a parsing thread (untrusted/): the text goes to
 * statementJob.ts, the statements come back with their amounts as decimal strings (a
 * Decimal does not survive the thread boundary) and become Money again here.
 */

/** The statements of a file, by its media type (pure; what the parsing thread runs). */
export function parseStatementFile(text: string, mediaType: string): ParsedStatement[] {
  return mediaType === 'text/csv' ? [parseCsv(text)] : parseCamt(text);
}

type Wire<T> = Omit<T, 'amount'> & { amount: string };
export type WireStatement = Omit<ParsedStatement, 'entries' | 'opening' | 'closing'> & {
  entries: Wire<StatementEntry>[];
  opening: Wire<StatementBalance> | null;
  closing: Wire<StatementBalance> | null;
};

export function toWire(statements: ParsedStatement[]): WireStatement[] {
  const balance = (b: StatementBalance | null) => (b ? { ...b, amount: b.amount.toFixed() } : null);
  return statements.map((s) => ({
    ...s,
    opening: balance(s.opening),
    closing: balance(s.closing),
    entries: s.entries.map((e) => ({ ...e, amount: e.amount.toFixed() })),
  }));
}

function fromWire(statements: WireStatement[]): ParsedStatement[] {
  const balance = (b: Wire<StatementBalance> | null) => (b ? { ...b, amount: new Money(b.amount) } : null);
  return statements.map((s) => ({
    ...s,
    opening: balance(s.opening),
    closing: balance(s.closing),
    entries: s.entries.map((e) => ({ ...e, amount: new Money(e.amount) })),
  }));
}

export interface StatementInput {
  text: string;
  mediaType: string;
}

const parseJob = jobRef<StatementInput, WireStatement[]>(jobModule(import.meta.url, 'statementJob'), 'parseStatement');

/** Reads a statement file on a parsing thread; a file the parser refuses is a 400 naming the entry. */
export async function readStatementFile(
  jobs: FileJobs,
  text: string,
  mediaType: string,
  company?: number,
): Promise<ParsedStatement[]> {
  try {
    const bytes = Buffer.byteLength(text);
    return fromWire(await jobs.run(parseJob, { text, mediaType }, { bytes, what: 'statement file', company }));
  } catch (err) {
    // a limit hit says which file it was
    if (err instanceof FileRefused && (err.limit === 'time' || err.limit === 'memory')) {
      throw new FileRefused('invalid_request', `The statement file is not usable: ${err.message}`, err.limit);
    }
    throw err;
  }
}
