import { Money, toJsonNumber } from '@ledger/shared';
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import { ruleInvalid } from '../../domain/errors.ts';
import { compact } from '../arap/index.ts';
import { accountBalance, compactBalances, addDays } from '../reports/index.ts';
import { documentBytes, type StorageKind } from '../files/index.ts';

/** The read shapes of journal entries (one entry, list rows) and the general ledger of one account. */

export type JournalRead = Record<string, unknown> & { id: number; status: string };

interface HeaderRow {
  id: number;
  reference: string;
  transdate: string;
  description: string | null;
  currency: string;
  exchangerate: string;
  status: string;
  closing: boolean;
  fiscal_year: number | null;
  reversal_of_id: number | null;
  reversed_by_id: number | null;
  created_at: Date;
  posted_at: Date | null;
  total_debit: string;
  base_total_debit: string;
}

interface EntryRow extends HeaderRow {
  lines: {
    accno: string;
    account_description: string;
    description: string | null;
    debit: string;
    credit: string;
    base_amount: string;
    dimensions: Record<string, string> | null;
  }[];
  files: { id: number; name: string; media_type: string; size: number }[];
}

const HEADER_COLUMNS = `g.id, g.reference, g.transdate, g.description, g.currency, g.exchangerate, g.status,
  g.closing, g.fiscal_year,
  g.reversal_of_id, g.reversed_by_id, g.created_at, g.posted_at,
  (select coalesce(sum(l.debit), 0)::text from gl_lines l where l.journal_id = g.id) as total_debit,
  (select coalesce(sum(l.base_amount) filter (where l.base_amount > 0), 0)::text
     from gl_lines l where l.journal_id = g.id) as base_total_debit`;

function header(r: HeaderRow): JournalRead {
  return compact({
    id: r.id,
    reference: r.reference,
    transdate: r.transdate,
    description: r.description,
    currency: r.currency.trim(),
    exchangerate: toJsonNumber(r.exchangerate),
    status: r.status,
    closing: r.closing,
    fiscalYear: r.fiscal_year,
    reversalOf: r.reversal_of_id,
    reversedBy: r.reversed_by_id,
    totalDebit: toJsonNumber(r.total_debit),
    baseTotalDebit: toJsonNumber(r.base_total_debit),
    created_at: r.created_at,
    posted_at: r.posted_at,
  });
}

const positive = (v: Decimal) => (v.isNegative() ? new Money(0) : v);

/** One entry with its lines and files; `fileUrlBase` is the absolute URL of `/client/{dataset}/gl/transactions`. */
export async function readJournal(
  tx: Tx,
  companyId: number,
  id: number,
  fileUrlBase: string,
): Promise<JournalRead | undefined> {
  const { rows } = await tx.raw<{ rows: EntryRow[] }>(
    `select ${HEADER_COLUMNS},
       (select coalesce(json_agg(json_build_object('accno', a.accno, 'account_description', a.description,
           'description', l.description, 'debit', l.debit::text, 'credit', l.credit::text,
           'base_amount', l.base_amount::text, 'dimensions', l.dimensions) order by l.position), '[]')
          from gl_lines l join accounts a on a.company_id = l.company_id and a.id = l.account_id
         where l.company_id = g.company_id and l.journal_id = g.id) as lines,
       (select coalesce(json_agg(json_build_object('id', f.id, 'name', f.name, 'media_type', f.media_type,
                                                   'size', f.size) order by f.id), '[]')
          from gl_files f where f.company_id = g.company_id and f.journal_id = g.id) as files
     from gl_transactions g where g.company_id = ? and g.id = ?`,
    [companyId, id],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...header(row),
    lines: row.lines.map((l) => {
      const base = new Money(l.base_amount);
      return compact({
        account: l.accno,
        accountDescription: l.account_description,
        description: l.description,
        debit: toJsonNumber(l.debit),
        credit: toJsonNumber(l.credit),
        baseDebit: toJsonNumber(positive(base)),
        baseCredit: toJsonNumber(positive(base.negated())),
        dimensions: l.dimensions ?? undefined,
      });
    }),
    files: row.files.map((f) => ({
      id: f.id,
      name: f.name,
      mediaType: f.media_type,
      size: f.size,
      url: `${fileUrlBase}/${row.id}/files/${f.id}`,
    })),
  };
}

export interface JournalListFilter {
  from?: string;
  to?: string;
  reference?: string;
  status?: string;
  sort: string;
  limit: number;
  offset: number;
}

const JOURNAL_ORDER = { transdate: 'g.transdate', reference: 'g.reference', id: 'g.id' };

export async function listJournals(
  tx: Tx,
  companyId: number,
  f: JournalListFilter,
): Promise<ListPage<Record<string, unknown>>> {
  const q = tx('gl_transactions as g').where('g.company_id', companyId);
  if (f.from !== undefined) q.where('g.transdate', '>=', f.from);
  if (f.to !== undefined) q.where('g.transdate', '<=', f.to);
  if (f.reference !== undefined) q.where('g.reference', f.reference);
  if (f.status !== undefined) q.where('g.status', f.status);
  const counted = await q.clone().count({ n: '*' }).first();
  const rows = await q
    .orderByRaw(orderBySql(f.sort, JOURNAL_ORDER, 'g.id'))
    .limit(f.limit)
    .offset(f.offset)
    .select<HeaderRow[]>(tx.raw(HEADER_COLUMNS));
  return { rows: rows.map(header), total: Number(counted?.n ?? 0) };
}

/** An attachment's row with where its bytes are (readJournalFile). */
interface FileRow {
  name: string;
  media_type: string;
  company_id: number;
  document_id: number;
  sha256: string;
  storage: StorageKind;
}

export async function readJournalFile(
  tx: Tx,
  companyId: number,
  id: number,
  fileId: number,
): Promise<{ name: string; media_type: string; data: Buffer } | undefined> {
  const row = await tx('gl_files as f')
    .join('documents as d', (j) => j.on('d.id', 'f.document_id').andOn('d.company_id', 'f.company_id'))
    .where({ 'f.company_id': companyId, 'f.id': fileId, 'f.journal_id': id })
    .first<FileRow | undefined>(
      'f.name',
      'f.media_type',
      'f.company_id',
      'd.id as document_id',
      'd.sha256',
      'd.storage',
    );
  if (!row) return undefined;
  // the bytes live in the document store (modules/files, migration 016), once per company
  const data = await documentBytes(tx, row.company_id, {
    id: row.document_id,
    sha256: row.sha256,
    storage: row.storage,
  });
  return { name: row.name, media_type: row.media_type, data };
}

// --- the general ledger of one account -------------------------------------------------

export interface LedgerQuery {
  account: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

interface LedgerLineRow {
  id: number;
  date: string;
  amount: string;
  fx_amount: string;
  currency: string;
  closing: boolean;
  running: string;
  description: string | null;
  source_kind: string;
  source_id: number;
  source_number: string | null;
}

/**
 * The ledger of one account, computed in SQL: the opening balance (everything before
 * `from`) as the reports read it (whole months from ledger_balances, the days of `from`'s
 * month from the lines), the period's totals and line count in one aggregate over the
 * account's index range of the period, and one page of lines whose running balance is a
 * window sum over the whole period (evaluated before LIMIT/OFFSET, so every page's balances
 * are right).
 */
export async function readLedger(
  tx: Tx,
  companyId: number,
  q: LedgerQuery,
): Promise<{ ledger: Record<string, unknown>; total: number }> {
  if (q.from !== undefined && q.to !== undefined && q.to < q.from)
    throw ruleInvalid('to must not lie before from.', '/to');
  const account = await tx('accounts')
    .where({ company_id: companyId, accno: q.account })
    .first('id', 'accno', 'description', 'category');
  if (!account) throw ruleInvalid(`Account ${q.account} does not exist in the chart of accounts.`, '/account');

  const from = q.from ?? null;
  const to = q.to ?? null;
  let opening = new Money(0);
  if (from !== null) {
    // the same merge of the balance rows the reports make before reading them
    await compactBalances(tx, companyId);
    opening = await accountBalance(tx, companyId, account.id, { from: null, to: addDays(from, -1) });
  }
  const {
    rows: [totals],
  } = await tx.raw<{ rows: { debit: string; credit: string; n: string }[] }>(
    `select coalesce(sum(amount) filter (where amount > 0), 0)::text as debit,
            coalesce(-sum(amount) filter (where amount < 0), 0)::text as credit,
            count(*) as n
       from ledger_entries
      where company_id = ? and account_id = ?
        and (?::date is null or date >= ?::date) and (?::date is null or date <= ?::date)`,
    [companyId, account.id, from, from, to, to],
  );
  const debit = new Money(totals!.debit);
  const credit = new Money(totals!.credit);
  const total = Number(totals!.n);
  const closing = opening.plus(debit).minus(credit);

  const { rows } = await tx.raw<{ rows: LedgerLineRow[] }>(
    `with period as (
       select e.id, e.date, e.amount, e.fx_amount, e.currency, e.closing, e.transaction_id, e.journal_id, e.payment_id,
              sum(e.amount) over (order by e.date, e.id rows between unbounded preceding and current row) as running
         from ledger_entries e
        where e.company_id = ? and e.account_id = ?
          and (?::date is null or e.date >= ?::date) and (?::date is null or e.date <= ?::date)
       order by e.date, e.id
       limit ? offset ?)
     select p.id, p.date, p.amount::text, p.fx_amount::text, p.currency, p.closing, p.running::text,
            case when p.payment_id is not null then 'Payment of ' || t.inv_number
                 else coalesce(g.description, t.description) end as description,
            case when p.payment_id is not null then 'payment'
                 when p.journal_id is not null then 'journal_entry'
                 else t.vc || '_' || t.type end as source_kind,
            coalesce(p.payment_id, p.journal_id, p.transaction_id) as source_id,
            coalesce(g.reference, t.inv_number) as source_number
       from period p
       left join gl_transactions g on g.company_id = ? and g.id = p.journal_id
       left join arap_transactions t on t.company_id = ? and t.id = p.transaction_id
      order by p.date, p.id`,
    [companyId, account.id, from, from, to, to, q.limit, q.offset, companyId, companyId],
  );

  const first = rows[0];
  const pageOpening = first ? opening.plus(first.running).minus(first.amount) : q.offset >= total ? closing : opening;
  return {
    total,
    ledger: {
      account: account.accno,
      description: account.description,
      category: account.category.trim(),
      from,
      to,
      opening: toJsonNumber(opening),
      debit: toJsonNumber(debit),
      credit: toJsonNumber(credit),
      closing: toJsonNumber(closing),
      page_opening: toJsonNumber(pageOpening),
      total,
      lines: rows.map((r) => {
        const amount = new Money(r.amount);
        return compact({
          id: r.id,
          date: r.date,
          description: r.description,
          debit: toJsonNumber(positive(amount)),
          credit: toJsonNumber(positive(amount.negated())),
          balance: toJsonNumber(opening.plus(r.running)),
          currency: r.currency.trim(),
          fx_amount: toJsonNumber(r.fx_amount),
          closing: r.closing,
          source: { kind: r.source_kind, id: r.source_id, number: r.source_number },
        });
      }),
    },
  };
}
