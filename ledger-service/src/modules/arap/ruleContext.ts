import type { Decimal } from 'decimal.js';
import { Money, partyRefOf, paymentFieldsOf, type TransactionInput } from '@ledger/shared';
import { preparedQuery, type Tx } from '../../db/knex.ts';
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
}

/** A document's rule context, and what its writer needs to know besides. */
export interface LoadedContext extends RuleContext {
  /** the company has an active webhook subscription: a new document's events may have someone to wake */
  subscribed: boolean;
}

/**
 * The snapshot's one read (prepared: every document write sends it); every table is filtered
 * by the company as well as by row-level security.
 */
const SNAPSHOT_SQL = `with acc as (
    select id, accno, link from accounts where company_id = ? and accno = any(?::text[]))
  select
    (select closed_until::text from companies where id = ?) as closed_until,
    (select coalesce(json_agg(json_build_object('id', p.id, 'number', p.number, 'name', p.name)), '[]')
       from parties p
      where p.company_id = ? and p.vc = ? and (p.id = any(?::bigint[]) or p.number = any(?::text[]))) as parties,
    (select coalesce(json_agg(json_build_object('id', a.id, 'accno', a.accno, 'link', a.link)), '[]')
       from acc a) as accounts,
    (select coalesce(json_agg(json_build_object('account_id', t.account_id, 'rate', t.rate::text,
                                                'valid_from', t.valid_from::text, 'valid_to', t.valid_to::text)
                              order by t.valid_from), '[]')
       from taxes t where t.company_id = ? and t.account_id in (select id from acc)
        and t.valid_from <= ?::date and (t.valid_to is null or t.valid_to >= ?::date)) as rates,
    (select coalesce(json_agg(json_build_object('id', b.id, 'partyId', b.party_id, 'iban', b.iban)), '[]')
       from vendor_bank_accounts b where b.company_id = ? and b.id = any(?::bigint[])) as bank,
    ${ACTIVE_SUBSCRIPTION_SQL} as subscribed`;

/**
 * What the rules of all the documents need, in one round trip (the union over the documents):
 * the closing date, every party named by id or number, every referenced account, every rate of
 * those tax accounts over the documents' dates, and the named vendor bank accounts. Returns each
 * document's RuleContext: the rates valid on its own invDate (the latest valid_from wins); the
 * rest may hold more than the document names, which the rules look up by id, number or accno.
 */
export async function loadRuleContexts(
  tx: Tx,
  company: Company,
  vc: Vc,
  inputs: readonly TransactionInput[],
): Promise<(input: TransactionInput) => LoadedContext> {
  const defaultControl = vc === 'vendor' ? company.settings.ap_account : company.settings.ar_account;
  const roundingAccount = company.settings.rounding_account;
  const accnos = [...new Set(inputs.flatMap((i) => referencedAccounts(i, [defaultControl, roundingAccount])))];
  const refs = inputs.map((i) => partyRefOf(vc, i));
  const ids = [...new Set(refs.flatMap((r) => (r.id === undefined ? [] : [r.id])))];
  const numbers = [...new Set(refs.flatMap((r) => (r.number === undefined ? [] : [r.number])))];
  const banks = [...new Set(inputs.flatMap((i) => paymentFieldsOf(i).vc_bank_id ?? []))];
  const dates = inputs.map((i) => i.invDate).sort();

  const { rows } = await preparedQuery<SnapshotRow>(tx, SNAPSHOT_SQL, [
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
  ]);
  const row = rows[0]!;
  const accounts = new Map<string, ChartAccount>(
    row.accounts.map((a) => [a.accno, { id: a.id, accno: a.accno, links: a.link.split(':').filter(Boolean) }]),
  );
  const shared = {
    baseCurrency: company.base_currency,
    closedUntil: row.closed_until,
    defaultControl,
    roundingAccount,
    parties: row.parties,
    accounts,
    bankAccounts: row.bank,
    dimensions: inputs.some((i) => namesDimensions(i.lines)) ? await loadDimensionCatalogue(tx, company.id) : undefined,
    subscribed: row.subscribed,
  };
  return (input) => {
    const on = input.invDate;
    const valid = row.rates.filter((r) => r.valid_from <= on && (r.valid_to === null || r.valid_to >= on));
    const rates = new Map<number, Decimal>(valid.map((r) => [r.account_id, new Money(r.rate)]));
    return { ...shared, rates };
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
