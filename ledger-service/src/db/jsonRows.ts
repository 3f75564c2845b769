/**
 * Many rows written by one statement with one parameter: the rows travel as one JSON document
 * and `jsonb_to_recordset` turns them back into rows. A statement is then not bound by
 * Postgres's 65,535 parameters, its triggers (ledger_balances) run once for all the rows, and it
 * can stand as a CTE of a larger statement that reads the new parent's id. Shared by the stores
 * that write documents with their lines in one step (arap documents and their batches, invoice
 * items, journal entries and their batches); each declares the columns of its rows and their
 * SQL types once, beside the code that builds the rows.
 */

/** The columns a JSON row carries, each with its SQL type (`position: 'int'`). */
export type JsonColumns = Readonly<Record<string, string>>;

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * `insert into <table> (<set…>, <column…>) select <set values…>, x.<column>… from [<from>, ]
 * jsonb_to_recordset(?::jsonb) as x(<column> <type>, …)`. `set` holds the columns whose value is
 * the same for every row, each as an SQL expression written by the caller (`'?'`, `'h.id'`);
 * their `?` bind before the JSON document. `from` names a source those expressions read (a CTE).
 * Table and column names are checked.
 */
export function insertJsonRows(
  table: string,
  columns: JsonColumns,
  set: Readonly<Record<string, string>> = {},
  from?: string,
): string {
  const names = Object.keys(columns);
  const fixed = Object.keys(set);
  for (const name of [table, ...fixed, ...names]) if (!SQL_NAME.test(name)) throw new Error(`not an SQL name: ${name}`);
  const types = names.map((n) => `${n} ${columns[n]}`).join(', ');
  const values = [...fixed.map((n) => set[n]), ...names.map((n) => `x.${n}`)].join(', ');
  return `insert into ${table} (${[...fixed, ...names].join(', ')})
       select ${values} from ${from ? `${from}, ` : ''}jsonb_to_recordset(?::jsonb) as x(${types})`;
}

/**
 * The ledger_entries columns every posting's rows carry in JSON (journal entries, arap
 * documents): the account, the date, the signed base amount, the signed entry-currency amount,
 * its currency and its dimensions (cost centre, project; absent = none, migration 039). Declared
 * once so both write the same types; each adds what differs (arap a `kind` per row, the journal
 * a fixed one).
 */
export const LEDGER_ENTRY_COLUMNS: JsonColumns = {
  account_id: 'bigint',
  date: 'date',
  amount: 'numeric',
  fx_amount: 'numeric',
  currency: 'text',
  // a line's dimensions (migration 039); absent in a row = none
  dimensions: 'jsonb',
};
