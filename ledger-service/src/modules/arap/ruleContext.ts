import { LRUCache } from 'lru-cache';
import type { Decimal } from 'decimal.js';
import { Money, partyRefOf, paymentFieldsOf, type TransactionInput } from '@ledger/shared';
import { preparedQuery, staleReadCheck, type Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import type { Vc } from './posting.ts';
import { referencedAccounts, type ChartAccount, type PartyRef, type RuleContext } from './rules.ts';

import { loadDimensionCatalogue, namesDimensions } from '../dimensions/index.ts';
import { ACTIVE_SUBSCRIPTION_SQL } from '../events/index.ts';
/**
 * The snapshot the rules of AR/AP transaction writes check against (rules.ts is pure), read
 * inside the write's transaction. One loader serves a single document (a batch of one) and a
 * batch (docs/batches.md), so both are checked against the same reads.
 */

interface SnapshotRow {
  closed_until: string | null;
  parties: PartyRef[];
  accounts: { id: number; accno: string; link: string }[];
  rates: { account_id: number; rate: string; valid_from: string; valid_to: string | null }[];
  bank: { id: number; partyId: number; iban: string }[];
  subscribed: boolean;
  /** the md5 of the row's JSON text (SNAPSHOT_SQL) */
  digest: string;
}

/** A document's rule context, and what its writer needs to know besides. */
export interface LoadedContext extends RuleContext {
  /** the company has an active webhook subscription: a new document's events may have someone to wake */
  subscribed: boolean;
}

/**
 * The snapshot's one read (prepared: every document write sends it); every table is filtered
 * by the company as well as by row-level security. Every list in a fixed order: the same rows
 * give the same text, so the row's digest (below) says whether anything changed.
 */
const SNAPSHOT_BODY = `with acc as (
    select id, accno, link from accounts where company_id = ? and accno = any(?::text[]))
  select
    (select closed_until::text from companies where id = ?) as closed_until,
    (select coalesce(json_agg(json_build_object('id', p.id, 'number', p.number, 'name', p.name) order by p.id), '[]')
       from parties p
      where p.company_id = ? and p.vc = ? and (p.id = any(?::bigint[]) or p.number = any(?::text[]))) as parties,
    (select coalesce(json_agg(json_build_object('id', a.id, 'accno', a.accno, 'link', a.link) order by a.id), '[]')
       from acc a) as accounts,
    (select coalesce(json_agg(json_build_object('account_id', t.account_id, 'rate', t.rate::text,
                                                'valid_from', t.valid_from::text, 'valid_to', t.valid_to::text)
                              order by t.valid_from, t.account_id, t.id), '[]')
       from taxes t where t.company_id = ? and t.account_id in (select id from acc)
        and t.valid_from <= ?::date and (t.valid_to is null or t.valid_to >= ?::date)) as rates,
    (select coalesce(json_agg(json_build_object('id', b.id, 'partyId', b.party_id, 'iban', b.iban) order by b.id), '[]')
       from vendor_bank_accounts b where b.company_id = ? and b.id = any(?::bigint[])) as bank,
    ${ACTIVE_SUBSCRIPTION_SQL} as subscribed`;

/** The snapshot and its digest: the md5 of the row's JSON text, as Postgres writes it. */
const SNAPSHOT_SQL = `select s.*, md5(row_to_json(s)::text) as digest from (${SNAPSHOT_BODY}) s`;

/**
 * An expression for the document's statement: true while the snapshot from the same bindings
 * still has the digest bound after them, else the statement fails (a stale read: the request
 * runs again, reading the snapshot afresh).
 */
const SNAPSHOT_UNCHANGED = staleReadCheck(`(select md5(row_to_json(s)::text) from (${SNAPSHOT_BODY}) s) = ?`);

/**
 * The snapshots of recent single documents, remembered between requests so that a bill like the
 * last one goes to Postgres as one message (issue 37: a bill's CPU is mostly its round trips).
 *
 * Why it is safe: a remembered snapshot is never trusted. The document's statement recomputes it
 * from the same parameters and compares its digest with the remembered one (SNAPSHOT_UNCHANGED);
 * when they differ the statement fails before anything commits, the entry is forgotten and the
 * request runs again reading the snapshot afresh. It only ever saves the round trip of reading it.
 * The key holds the company, so one company's entry is never read for another; each entry is what
 * that company's own row-level-security-scoped read returned. At most 1,000 (a few KB each), the
 * least recently used forgotten first.
 */
const remembered = new LRUCache<string, Remembered>({ max: 1000 });

/**
 * A remembered snapshot and, once a document was computed against it, the context made from it: the
 * key holds the document's date, so the context (its accounts map and the rates valid on that date)
 * is the same for the next document like it, as long as the company's own settings it was made with
 * (base currency, default control and rounding account) are unchanged. Read-only for its users (the
 * rules are pure), so concurrent requests may share it.
 */
interface Remembered {
  row: SnapshotRow;
  context?: LoadedContext;
}

/** The snapshot's bindings for the documents, and the key a single document's snapshot is remembered under. */
function snapshotQuery(company: Company, vc: Vc, inputs: readonly TransactionInput[]) {
  const defaultControl = vc === 'vendor' ? company.settings.ap_account : company.settings.ar_account;
  const roundingAccount = company.settings.rounding_account;
  const accnos = [...new Set(inputs.flatMap((i) => referencedAccounts(i, [defaultControl, roundingAccount])))];
  const refs = inputs.map((i) => partyRefOf(vc, i));
  const ids = [...new Set(refs.flatMap((r) => (r.id === undefined ? [] : [r.id])))];
  const numbers = [...new Set(refs.flatMap((r) => (r.number === undefined ? [] : [r.number])))];
  const banks = [...new Set(inputs.flatMap((i) => paymentFieldsOf(i).vc_bank_id ?? []))];
  const dates = inputs.map((i) => i.invDate).sort();
  const bindings = [
    company.id,
    accnos,
    company.id,
    company.id,
    vc,
    ids,
    numbers,
    company.id,
    dates.at(-1)!,
    dates[0]!,
    company.id,
    banks,
    company.id,
  ];
  const key = JSON.stringify([company.id, vc, accnos, ids, numbers, dates.at(-1), dates[0], banks]);
  return { bindings, key, defaultControl, roundingAccount };
}

/**
 * What the rules of all the documents need, in one round trip (the union over the documents):
 * the closing date, every party named by id or number, every referenced account, every rate of
 * those tax accounts over the documents' dates, and the named vendor bank accounts. Returns each
 * document's RuleContext: the rates valid on its own invDate (the latest valid_from wins); the
 * rest may hold more than the document names, which the rules look up by id, number or accno.
 * A single document's snapshot is remembered (recallRuleContext).
 */
export async function loadRuleContexts(
  tx: Tx,
  company: Company,
  vc: Vc,
  inputs: readonly TransactionInput[],
): Promise<(input: TransactionInput) => LoadedContext> {
  const query = snapshotQuery(company, vc, inputs);
  const { rows } = await preparedQuery<SnapshotRow>(tx, SNAPSHOT_SQL, query.bindings);
  const row = rows[0]!;
  if (inputs.length === 1) remembered.set(query.key, { row });
  const dimensions = inputs.some((i) => namesDimensions(i.lines))
    ? await loadDimensionCatalogue(tx, company.id)
    : undefined;
  return contextsOf(company, row, query, dimensions);
}

/** Each document's context from a snapshot row. */
function contextsOf(
  company: Company,
  row: SnapshotRow,
  query: Pick<ReturnType<typeof snapshotQuery>, 'defaultControl' | 'roundingAccount'>,
  dimensions: LoadedContext['dimensions'],
): (input: TransactionInput) => LoadedContext {
  const accounts = new Map<string, ChartAccount>(
    row.accounts.map((a) => [a.accno, { id: a.id, accno: a.accno, links: a.link.split(':').filter(Boolean) }]),
  );
  const shared = {
    baseCurrency: company.base_currency,
    closedUntil: row.closed_until,
    defaultControl: query.defaultControl,
    roundingAccount: query.roundingAccount,
    parties: row.parties,
    accounts,
    bankAccounts: row.bank,
    dimensions,
    subscribed: row.subscribed,
  };
  return (input) => {
    const on = input.invDate;
    const valid = row.rates.filter((r) => r.valid_from <= on && (r.valid_to === null || r.valid_to >= on));
    const rates = new Map<number, Decimal>(valid.map((r) => [r.account_id, new Money(r.rate)]));
    return { ...shared, rates };
  };
}

/** A remembered snapshot's context, with the check its document's statement makes and a way to drop it. */
export interface RecalledContext {
  context: LoadedContext;
  /** an SQL expression and its bindings: fails the statement unless the snapshot is still the remembered one */
  check: { sql: string; bindings: unknown[] };
  forget(): void;
}

/**
 * The context of a single document from the snapshot remembered for the same parameters, if
 * any (not for lines naming dimensions, whose catalogue is not remembered). Its writer sends
 * `check` in the document's statement: a snapshot that changed fails it (nothing commits), and
 * the caller forgets it and runs again.
 */
export function recallRuleContext(company: Company, vc: Vc, input: TransactionInput): RecalledContext | undefined {
  if (namesDimensions(input.lines)) return undefined;
  const query = snapshotQuery(company, vc, [input]);
  const entry = remembered.get(query.key);
  if (!entry) return undefined;
  const { row } = entry;
  let context = entry.context;
  if (
    context === undefined ||
    context.baseCurrency !== company.base_currency ||
    context.defaultControl !== query.defaultControl ||
    context.roundingAccount !== query.roundingAccount
  ) {
    context = contextsOf(company, row, query, undefined)(input);
    entry.context = context;
  }
  return {
    context,
    check: { sql: SNAPSHOT_UNCHANGED, bindings: [...query.bindings, row.digest] },
    forget: () => remembered.delete(query.key),
  };
}

/** The snapshot of one transaction write: loadRuleContexts of a batch of one. */
export async function loadRuleContext(
  tx: Tx,
  company: Company,
  vc: Vc,
  input: TransactionInput,
): Promise<LoadedContext> {
  return (await loadRuleContexts(tx, company, vc, [input]))(input);
}
