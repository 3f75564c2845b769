import { Money, isKnownCurrency, minorUnits } from '@ledger/shared/money';
import { compactReference, referenceTypeOf } from '@ledger/shared/references';
import { ruleInvalid } from '../../domain/errors.ts';
import { isCalendarDate } from './rules.ts';
import type { ParsedStatement, StatementEntry } from './rules.ts';

/**
 * Bank transactions as CSV (docs/bank.md): a header row naming the columns
 * `date,amount,currency,counterparty,iban,reference,description` (any order, case
 * insensitive), then one transaction per row. RFC 4180 quoting (fields in double quotes,
 * "" for a quote, line breaks inside quotes). Separated by commas, or by semicolons as Swiss
 * (and most European) banks export with their spreadsheet settings: the header row decides,
 * and a header split by anything else (tabs, vertical bars) is refused naming it. Dates
 * yyyy-mm-dd, amounts signed with a decimal point (credits positive); in a semicolon file a
 * decimal comma too, since there the comma can only be the decimal mark. The file names no
 * account: the import needs `?account=`.
 */

export const CSV_COLUMNS = ['date', 'amount', 'currency', 'counterparty', 'iban', 'reference', 'description'] as const;
type Column = (typeof CSV_COLUMNS)[number];

function csvError(message: string): Error {
  return ruleInvalid(`The CSV file is not usable: ${message}`);
}

export type Separator = ',' | ';';

/** What the header row may be split by: the two recognised, the others only to be named in the refusal. */
const SEPARATOR_NAMES: Readonly<Record<string, string>> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
  '|': 'vertical bars',
};

/**
 * The file's separator, from its header row (the first line, quotes skipped): the candidate
 * that occurs most often there. The column names contain none of them, so a comma file's
 * header has no semicolon and the other way round.
 */
export function detectSeparator(text: string): Separator {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '\n' || ch === '\r') break;
    else if (ch in SEPARATOR_NAMES) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  const most = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ',';
  if (most === ',' || most === ';') return most;
  throw csvError(
    `the header row is separated by ${SEPARATOR_NAMES[most]}; separate the columns with commas or semicolons.`,
  );
}

/** Splits CSV text into rows of fields (RFC 4180), at `separator`. */
export function csvRows(text: string, separator: Separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte order mark is not part of the first column's name
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === separator) endField();
    else if (ch === '\n') endRow();
    else if (ch === '\r') {
      if (text[i + 1] !== '\n') endRow();
    } else field += ch;
  }
  if (quoted) throw csvError(`a quoted field is not closed (row ${rows.length + 1}).`);
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

export function parseCsv(text: string): ParsedStatement {
  const separator = detectSeparator(text);
  const rows = csvRows(text, separator);
  // a decimal comma only where the comma cannot be the separator
  const amountPattern = separator === ';' ? /^[-+]?\d{1,15}([.,]\d{1,6})?$/ : /^[-+]?\d{1,15}(\.\d{1,6})?$/;
  const amountExample = separator === ';' ? '-1234.50 or -1234,50' : '-1234.50';
  if (rows.length === 0) throw csvError('it is empty.');
  const header = rows[0]!.map((h) => h.trim().toLowerCase());
  const position = new Map<Column, number>();
  for (const column of CSV_COLUMNS) {
    const at = header.indexOf(column);
    if (at < 0) throw csvError(`the header row has no column "${column}" (columns: ${CSV_COLUMNS.join(',')}).`);
    position.set(column, at);
  }
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0)
    throw csvError(`unknown column ${unknown.map((u) => `"${u}"`).join(', ')} in the header row.`);

  const entries: StatementEntry[] = rows.slice(1).map((fields, i) => {
    const line = i + 2;
    if (fields.length !== header.length)
      throw csvError(`row ${line} has ${fields.length} fields, the header ${header.length}.`);
    const get = (c: Column) => {
      const v = fields[position.get(c)!]!.trim();
      return v === '' ? null : v;
    };
    const date = get('date');
    if (date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date)) {
      throw csvError(`row ${line}: date "${date ?? ''}" is not a date (yyyy-mm-dd).`);
    }
    const written = get('amount');
    if (written === null || !amountPattern.test(written)) {
      throw csvError(
        `row ${line}: amount "${written ?? ''}" is not a number like ${amountExample} (no thousands separators).`,
      );
    }
    const amount = written.replace(',', '.');
    const currency = (get('currency') ?? '').toUpperCase();
    if (!isKnownCurrency(currency)) throw csvError(`row ${line}: "${currency}" is not an ISO 4217 currency.`);
    // finer than the currency's minor unit (0.001 CHF) could never be booked or matched
    const value = new Money(amount);
    if (value.decimalPlaces() > minorUnits(currency)) {
      throw csvError(
        `row ${line}: amount ${written} has more decimals than ${currency} has (${minorUnits(currency)}).`,
      );
    }
    const iban = get('iban');
    const reference = get('reference');
    // a structured reference is kept compact, so it compares with qr_reference; anything else stays as text
    const structured = reference !== null && referenceTypeOf(reference) !== null;
    const description = get('description');
    return {
      date,
      valueDate: null,
      amount: value,
      currency,
      counterparty: get('counterparty'),
      iban: iban === null ? null : iban.replace(/\s+/g, '').toUpperCase(),
      reference: structured ? compactReference(reference) : null,
      endToEndId: null,
      text: [structured ? null : reference, description].filter((x) => x !== null).join(' ') || null,
      bankReference: null,
      reversal: false,
      detail: null,
    };
  });
  return {
    source: 'csv',
    version: null,
    id: null,
    iban: null,
    accountLabel: null,
    currency: null,
    opening: null,
    closing: null,
    entries,
    skipped: 0,
  };
}
