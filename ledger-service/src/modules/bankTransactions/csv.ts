import { Money, isKnownCurrency } from '@ledger/shared';
import { compactReference, referenceTypeOf } from '@ledger/shared/references';
import { ruleInvalid } from '../../domain/errors.ts';
import { isCalendarDate } from './rules.ts';
import type { ParsedStatement, StatementEntry } from './rules.ts';

/**
 * Bank transactions as CSV (DESIGN.md §5.5): a header row naming the columns
 * `date,amount,currency,counterparty,iban,reference,description` (any order, case
 * insensitive), then one transaction per row. RFC 4180 quoting (fields in double quotes,
 * "" for a quote, line breaks inside quotes); comma separated. Dates yyyy-mm-dd, amounts
 * signed with a decimal point (credits positive). The file names no account: the import
 * needs `?account=`.
 */

export const CSV_COLUMNS = ['date', 'amount', 'currency', 'counterparty', 'iban', 'reference', 'description'] as const;
type Column = (typeof CSV_COLUMNS)[number];

function csvError(message: string): Error {
  return ruleInvalid(`The CSV file is not usable: ${message}`);
}

/** Splits CSV text into rows of fields (RFC 4180). */
export function csvRows(text: string): string[][] {
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
    else if (ch === ',') endField();
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
  const rows = csvRows(text);
  if (rows.length === 0) throw csvError('it is empty.');
  const header = rows[0]!.map((h) => h.trim().toLowerCase());
  const position = new Map<Column, number>();
  for (const column of CSV_COLUMNS) {
    const at = header.indexOf(column);
    if (at < 0) throw csvError(`the header row has no column "${column}" (columns: ${CSV_COLUMNS.join(',')}).`);
    position.set(column, at);
  }
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length > 0) throw csvError(`unknown column ${unknown.map((u) => `"${u}"`).join(', ')} in the header row.`);

  const entries: StatementEntry[] = rows.slice(1).map((fields, i) => {
    const line = i + 2;
    if (fields.length !== header.length) throw csvError(`row ${line} has ${fields.length} fields, the header ${header.length}.`);
    const get = (c: Column) => {
      const v = fields[position.get(c)!]!.trim();
      return v === '' ? null : v;
    };
    const date = get('date');
    if (date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date)) {
      throw csvError(`row ${line}: date "${date ?? ''}" is not a date (yyyy-mm-dd).`);
    }
    const amount = get('amount');
    if (amount === null || !/^[-+]?\d{1,15}(\.\d{1,6})?$/.test(amount)) throw csvError(`row ${line}: amount "${amount ?? ''}" is not a number like -1234.50.`);
    const currency = (get('currency') ?? '').toUpperCase();
    if (!isKnownCurrency(currency)) throw csvError(`row ${line}: "${currency}" is not an ISO 4217 currency.`);
    const iban = get('iban');
    const reference = get('reference');
    // a structured reference is kept compact, so it compares with qr_reference; anything else stays as text
    const structured = reference !== null && referenceTypeOf(reference) !== null;
    const description = get('description');
    return {
      date,
      valueDate: null,
      amount: new Money(amount),
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
  return { source: 'csv', version: null, id: null, iban: null, accountLabel: null, currency: null, opening: null, closing: null, entries, skipped: 0 };
}
