import type { Decimal } from 'decimal.js';
import { Money, partyRefOf, paymentFieldsOf, type TransactionInput } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import type { Vc } from './posting.ts';
import { referencedAccounts, type ChartAccount, type PartyRef, type RuleContext } from './rules.ts';

interface SnapshotRow {
  closed_until: string | null;
  parties: PartyRef[];
  accounts: { id: number; accno: string; link: string }[];
  rates: { account_id: number; rate: string }[];
  bank: { id: number; partyId: number; iban: string }[];
}

/**
 * Everything the rules of one transaction write need, in one round trip: the closing
 * date (read inside the write's transaction), the candidate parties, the referenced
 * accounts, the tax rates valid on invDate and the named vendor bank account.
 */
export async function loadRuleContext(tx: Tx, company: Company, vc: Vc, input: TransactionInput): Promise<RuleContext> {
  const defaultControl = vc === 'vendor' ? company.settings.ap_account : company.settings.ar_account;
  const roundingAccount = company.settings.rounding_account;
  const accnos = referencedAccounts(input, [defaultControl, roundingAccount]);
  const party = partyRefOf(vc, input);
  const partyId = party.id ?? null;
  const partyNumber = party.number ?? null;

  const { rows } = await tx.raw<{ rows: SnapshotRow[] }>(
    `with acc as (select id, accno, link from accounts where accno = any(?::text[]))
     select
       (select closed_until::text from companies where id = ?) as closed_until,
       (select coalesce(json_agg(json_build_object('id', p.id, 'number', p.number, 'name', p.name)), '[]')
          from parties p where p.vc = ? and (p.id = ?::bigint or p.number = ?::text)) as parties,
       (select coalesce(json_agg(json_build_object('id', a.id, 'accno', a.accno, 'link', a.link)), '[]') from acc a) as accounts,
       (select coalesce(json_agg(json_build_object('account_id', t.account_id, 'rate', t.rate::text) order by t.valid_from), '[]')
          from taxes t where t.account_id in (select id from acc)
           and t.valid_from <= ?::date and (t.valid_to is null or t.valid_to >= ?::date)) as rates,
       (select coalesce(json_agg(json_build_object('id', b.id, 'partyId', b.party_id, 'iban', b.iban)), '[]')
          from vendor_bank_accounts b where b.id = ?::bigint) as bank`,
    [accnos, company.id, vc, partyId, partyNumber, input.invDate, input.invDate, paymentFieldsOf(input).vc_bank_id ?? null],
  );
  const row = rows[0]!;
  const accounts = new Map<string, ChartAccount>(
    row.accounts.map((a) => [a.accno, { id: a.id, accno: a.accno, links: a.link.split(':').filter(Boolean) }]),
  );
  const rates = new Map<number, Decimal>(row.rates.map((r) => [r.account_id, new Money(r.rate)]));
  return {
    baseCurrency: company.base_currency,
    closedUntil: row.closed_until,
    defaultControl,
    roundingAccount,
    parties: row.parties,
    accounts,
    rates,
    bankAccounts: row.bank,
  };
}
