import type { Decimal } from 'decimal.js';
import { amountJson, Money, type RevaluationInput } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import type { RevaluationItem, RevaluationsRow } from '../../db/tables.ts';
import { DomainError, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { lockJournal, postEntry, reverseEntry, type JournalLineRow } from '../journal/index.ts';
import { addDays } from '../reports/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { differenceLines, revalue } from './rules.ts';
import { fxAccount, insertRevaluation, lockCompany, openItems, revaluationOn, standingItems } from './store.ts';

/**
 * POST /system/revaluation (docs/year-end.md "Revaluation"): the open foreign-currency items at
 * the date, valued at the closing rates, their differences booked as one journal entry against
 * the FX account (reversed the next day when asked), the whole kept per date so that a second
 * request for the date books nothing and answers the first result.
 */

function answer(row: Pick<RevaluationsRow, 'date' | 'items' | 'journal_id' | 'reversal_journal_id'>, currency: string) {
  return {
    date: row.date,
    journal_id: row.journal_id,
    reversal_journal_id: row.reversal_journal_id,
    items: row.items.map((i) => ({
      kind: i.kind,
      id: i.id,
      currency: i.currency,
      open: amountJson(i.open, i.currency),
      old_value: amountJson(i.old_value, currency),
      new_value: amountJson(i.new_value, currency),
      difference: amountJson(i.difference, currency),
    })),
  };
}

const line = (accountId: number, amount: Decimal, description: string): JournalLineRow => ({
  accountId,
  description,
  debit: amount.isNegative() ? new Money(0) : amount,
  credit: amount.isNegative() ? amount.negated() : new Money(0),
  baseAmount: amount,
  dimensions: null,
});

export async function revaluate(c: ServiceContext, input: RevaluationInput) {
  const base = c.company.base_currency.trim();
  for (const code of Object.keys(input.rates)) {
    if (!/^[A-Z]{3}$/.test(code)) throw ruleInvalid(`${code} is not a currency code.`, `/rates/${code}`);
  }
  // one revaluation per date: the company row serialises concurrent requests
  await lockCompany(c.tx, c.company.id);
  const earlier = await revaluationOn(c.tx, c.company.id, input.date);
  if (earlier) return answer(earlier, base);

  const closed = await closedUntil(c.tx, c.company.id);
  assertOpenPeriod(input.date, closed, '/date');
  const nextDay = addDays(input.date, 1);
  if (input.reverse_next_day) assertOpenPeriod(nextDay, closed, '/reverse_next_day');

  const standing = await standingItems(c.tx, c.company.id, input.date);
  const standingOf = (kind: string, id: number) =>
    standing.filter((s) => s.kind === kind && s.id === id).reduce((sum, s) => sum.plus(s.difference), new Money(0));
  const rows = await openItems(c.tx, c.company.id, input.date, base);
  const revalued = revalue(
    rows.map((r) => ({
      kind: r.kind,
      id: r.id,
      currency: r.currency.trim(),
      accountId: r.account_id,
      fx: new Money(r.fx),
      base: new Money(r.base),
      // a bank account's earlier revaluations are lines on its own account: already in `base`
      standing: r.kind === 'bank' ? new Money(0) : standingOf(r.kind, r.id),
    })),
    input.rates,
    base,
  );
  const changed = revalued.filter((r) => !r.difference.isZero());
  let journalId: number | null = null;
  let reversalId: number | null = null;
  if (changed.length > 0) {
    const fxAccno = c.company.settings.fx_gain_loss_account;
    const fx = typeof fxAccno === 'string' ? await fxAccount(c.tx, c.company.id, fxAccno) : undefined;
    if (!fx) throw new DomainError('invalid_request', 'The company has no FX gain/loss account (company settings).');
    const lines = changed.flatMap((r) =>
      differenceLines(r, fx.id).map((l) => line(l.accountId, l.amount, `Revaluation ${r.item.kind} ${r.item.id}`)),
    );
    const entry = await postEntry(c, {
      reference: `REVAL-${input.date}`,
      transdate: input.date,
      description: `Revaluation at ${input.date}`,
      closing: false,
      fiscalYear: null,
      lines,
    });
    journalId = entry.id;
    if (input.reverse_next_day) {
      const row = await lockJournal(c.tx, c.company.id, entry.id);
      reversalId = (
        await reverseEntry(c, row!, { date: nextDay, description: `Reversal of revaluation ${input.date}` })
      ).id;
    }
  }
  const items: RevaluationItem[] = revalued.map((r) => ({
    kind: r.item.kind,
    id: r.item.id,
    currency: r.item.currency,
    open: r.open.toFixed(),
    old_value: r.oldValue.toFixed(),
    new_value: r.newValue.toFixed(),
    difference: r.difference.toFixed(),
  }));
  const kept = { date: input.date, rates: input.rates, items, journal_id: journalId, reversal_journal_id: reversalId };
  await insertRevaluation(c.tx, c.company.id, kept);
  await recordAudit(c.tx, c.company.id, c.actor, 'revaluation', journalId, 'create', {
    date: input.date,
    rates: input.rates,
    journal_id: journalId,
  });
  return answer(kept, base);
}
