/**
 * The tie-out with an independent engine (docs/testing.md): one company's posted ledger lines written as an
 * hledger journal, and hledger's balances read back. hledger refuses a journal with an unbalanced transaction by
 * itself, so a journal it reads is already a proof that every posting balances.
 *
 * One transaction per posting event: the lines of a journal entry, of a payment (or allocation), or of a
 * document on one date. The account is the chart's account number, the amount the exact stored decimal
 * (base currency, debit positive), a line's dimensions are posting tags (`cc:admin`), and the lines of a fiscal
 * year's closing entry carry the tag `closing` (the income statement leaves them out, as the ledger's does).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { addDays, formatISO, parseISO } from 'date-fns';
import type { Decimal } from 'decimal.js';
import { Money } from '@ledger/shared';
import type { Tx } from '../../src/db/knex.ts';

const run = promisify(execFile);

export interface PostedLine {
  day: string;
  accno: string;
  amount: string;
  journal_id: string | null;
  payment_id: string | null;
  transaction_id: string | null;
  closing: boolean;
  dimensions: Record<string, string> | null;
}

/** Every posted ledger line of the company the transaction is scoped to, in posting order. */
export async function postedLines(tx: Tx, companyId: number): Promise<PostedLine[]> {
  return tx('ledger_entries as e')
    .join('accounts as a', function () {
      this.on('a.id', '=', 'e.account_id').andOn('a.company_id', '=', 'e.company_id');
    })
    .where('e.company_id', companyId)
    .orderBy([{ column: 'e.date' }, { column: 'e.id' }])
    .select<PostedLine[]>(
      tx.raw(`to_char(e.date, 'YYYY-MM-DD') as day`),
      'a.accno',
      tx.raw('e.amount::text as amount'),
      tx.raw('e.journal_id::text as journal_id'),
      tx.raw('e.payment_id::text as payment_id'),
      tx.raw('e.transaction_id::text as transaction_id'),
      'e.closing',
      'e.dimensions',
    );
}

/** What makes lines one posting event: the entry, the payment or the document, and the date (a reversal is another). */
function eventOf(line: PostedLine): string {
  const source = line.journal_id
    ? `journal ${line.journal_id}`
    : line.payment_id
      ? `payment ${line.payment_id}`
      : `document ${line.transaction_id}`;
  return `${line.day} ${source}`;
}

/** A tag value as hledger reads it: no commas, colons or line ends. */
const tagValue = (v: string) => v.replace(/[,:\n\r]/g, '_');

/** The journal text: one transaction per posting event, in the order of the lines. */
export function hledgerJournal(lines: PostedLine[]): string {
  const events = new Map<string, PostedLine[]>();
  for (const line of lines) {
    const key = eventOf(line);
    events.set(key, [...(events.get(key) ?? []), line]);
  }
  const out: string[] = [];
  for (const [key, group] of events) {
    out.push(`${group[0]!.day} ${key.slice(11)}`);
    for (const line of group) {
      const tags = [
        ...(line.closing ? ['closing:'] : []),
        ...Object.entries(line.dimensions ?? {}).map(([code, value]) => `${code}:${tagValue(value)}`),
      ];
      out.push(`    ${line.accno}  ${line.amount}${tags.length ? `  ; ${tags.join(', ')}` : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** Writes the journal to a file of its own and returns the path. */
export function writeJournal(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hledger-')), 'books.journal');
  writeFileSync(file, text);
  return file;
}

/**
 * `hledger -f file bal --flat --no-total -O csv` with the given options and query: each account's balance,
 * rounded to the cent (accounts hledger leaves out have none, i.e. zero).
 */
export async function hledgerBalances(file: string, args: string[] = []): Promise<Map<string, string>> {
  const { stdout } = await run('hledger', ['-f', file, 'bal', '--flat', '--no-total', '-O', 'csv', ...args]);
  const balances = new Map<string, string>();
  for (const row of stdout.trim().split('\n').slice(1)) {
    if (!row) continue;
    const [account, amount] = row.split('","').map((cell) => cell.replace(/^"|"$/g, ''));
    balances.set(account!, cents(amount!.replace(/,/g, '')));
  }
  return balances;
}

/** An amount rounded to the cent, as text ("-0.00" is "0.00"). */
export function cents(v: Decimal.Value): string {
  const rounded = new Money(v).toDecimalPlaces(2);
  return (rounded.isZero() ? new Money(0) : rounded).toFixed(2);
}

/** hledger's end date is exclusive: the day after `to`. */
export function dayAfter(day: string): string {
  return formatISO(addDays(parseISO(day), 1), { representation: 'date' });
}
