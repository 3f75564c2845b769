import type { Decimal } from 'decimal.js';
import { Money, type TransactionInput } from '@ledger/shared';
import type { Tx } from './knex.ts';
import type { Company } from './companies.ts';
import type { Vc } from '../domain/posting.ts';
import { referencedAccounts, type ChartAccount, type PartyRef, type RuleContext } from '../domain/transactionRules.ts';

interface SnapshotRow {
  closed_until: string | null;
  parties: PartyRef[];
  accounts: { id: number; accno: string; link: string }[];
  rates: { account_id: number; rate: string }[];
  bank: { id: number; partyId: number }[];
}

/**
 * Everything the rules of one transaction write need, in one round trip: the closing
 * date (read inside the write's transaction), the candidate parties, the referenced
 * accounts, the tax rates valid on invDate and the named vendor bank account.
 */
export async function loadRuleContext(tx: Tx, company: Company, vc: Vc, input: TransactionInput): Promise<RuleContext> {
  return (await loadWriteSnapshot(tx, company, vc, input, null)).rules;
}

/**
 * loadRuleContext plus, when `sequenceKind` is given, the next value of that number
 * sequence taken in the same round trip (the create path's hot loop: one statement
 * fewer). A refused write rolls the transaction back and so gives the number back.
 */
export async function loadWriteSnapshot(
  tx: Tx, company: Company, vc: Vc, input: TransactionInput, sequenceKind: string | null,
): Promise<{ rules: RuleContext; sequenceValue: number | null }> {
  const defaultControl = vc === 'vendor' ? company.settings.ap_account : company.settings.ar_account;
  const roundingAccount = company.settings.rounding_account;
  const accnos = referencedAccounts(input, [defaultControl, roundingAccount]);
  const partyId = (vc === 'vendor' ? input.vendor_id : input.customer_id) ?? null;
  const partyNumber = (vc === 'vendor' ? input.vendornumber : input.customernumber) ?? null;

  const seq = sequenceKind === null ? '' : `seq as (insert into sequences (company_id, kind, next_value) values (?, ?, 2)
       on conflict (company_id, kind) do update set next_value = sequences.next_value + 1 returning next_value - 1 as value),`;
  const { rows } = await tx.raw<{ rows: (SnapshotRow & { seq_value?: number })[] }>(
    `with ${seq} acc as (select id, accno, link from accounts where accno = any(?::text[]))
     select ${sequenceKind === null ? '' : '(select value from seq) as seq_value,'}
       (select closed_until::text from companies where id = ?) as closed_until,
       (select coalesce(json_agg(json_build_object('id', p.id, 'number', p.number, 'name', p.name)), '[]')
          from parties p where p.vc = ? and (p.id = ?::bigint or p.number = ?::text)) as parties,
       (select coalesce(json_agg(json_build_object('id', a.id, 'accno', a.accno, 'link', a.link)), '[]') from acc a) as accounts,
       (select coalesce(json_agg(json_build_object('account_id', t.account_id, 'rate', t.rate::text) order by t.valid_from), '[]')
          from taxes t where t.account_id in (select id from acc)
           and t.valid_from <= ?::date and (t.valid_to is null or t.valid_to >= ?::date)) as rates,
       (select coalesce(json_agg(json_build_object('id', b.id, 'partyId', b.party_id)), '[]')
          from vendor_bank_accounts b where b.id = ?::bigint) as bank`,
    [
      ...(sequenceKind === null ? [] : [company.id, sequenceKind]),
      accnos, company.id, vc, partyId, partyNumber, input.invDate, input.invDate, input.vc_bank_id ?? null,
    ],
  );
  const row = rows[0]!;
  const accounts = new Map<string, ChartAccount>(
    row.accounts.map((a) => [a.accno, { id: a.id, accno: a.accno, links: a.link.split(':').filter(Boolean) }]),
  );
  const rates = new Map<number, Decimal>(row.rates.map((r) => [r.account_id, new Money(r.rate)]));
  const rules: RuleContext = {
    baseCurrency: company.base_currency,
    closedUntil: row.closed_until,
    defaultControl,
    roundingAccount,
    parties: row.parties,
    accounts,
    rates,
    bankAccounts: row.bank,
  };
  return { rules, sequenceValue: row.seq_value ?? null };
}

/** The company's closing date, read inside the current transaction. */
export async function closedUntil(tx: Tx, companyId: number): Promise<string | null> {
  const row = (await tx('companies').where({ id: companyId }).first(tx.raw('closed_until::text as closed_until'))) as
    | { closed_until: string | null }
    | undefined;
  return row?.closed_until ?? null;
}
