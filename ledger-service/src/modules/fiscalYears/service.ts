import { Money } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { lockClosingDate } from '../../db/companies.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { today } from '../../domain/period.ts';
import { pageOf, type ListPage } from '../../db/listOrder.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { postEntry, reverseEntry, lockJournal, type JournalLineRow } from '../journal/index.ts';
import { accountByNumber, closingEntries, postedDateSpan, resultBalances } from './store.ts';
import {
  fiscalCalendarOf,
  fiscalYearNumberOf,
  fiscalYearNumbered,
  MAX_FIRST_YEAR_MONTHS,
  monthsOf,
  type FiscalYearSpan,
} from '../../domain/fiscalYear.ts';
import { recordEvent } from '../events/index.ts';

/**
 * Fiscal years (docs/journal.md, docs/year-end.md "Fiscal years"): the company's shape
 * (domain/fiscalYear.ts), calendar years unless set. Closing one books its
 * income statement to retained earnings with one closing journal entry dated the year's last day
 * and closes the books up to that day; reopening (moving the closing date back before a
 * closed year's end with POST /system/close_books) reverses that entry.
 */
export interface FiscalYear {
  year: number;
  start: string;
  end: string;
  closed: boolean;
  closing_entry_id?: number;
}

export const FISCAL_YEAR_ENTITY = 'fiscal_year';
const FIRST_YEAR = 1900;
const LAST_YEAR = 9999;

/** The company's fiscal year numbered `year` (null before its first year), with the first posted line's date. */
async function yearOf(c: ServiceContext, year: number): Promise<FiscalYearSpan | null> {
  const span = await postedDateSpan(c.tx, c.company.id);
  return fiscalYearNumbered(fiscalCalendarOf(c.company.settings), year, span?.first ?? null);
}

/**
 * Every year from the first posted line (or closing entry) to the current year or the last posted line, oldest first;
 * one page of them.
 */
export async function listFiscalYears(
  c: ServiceContext,
  page: { limit: number; offset: number },
): Promise<ListPage<FiscalYear>> {
  const span = await postedDateSpan(c.tx, c.company.id);
  const cal = fiscalCalendarOf(c.company.settings);
  const closings = new Map((await closingEntries(c.tx, c.company.id)).map((r) => [r.fiscal_year, r.id]));
  const years = [
    fiscalYearNumberOf(cal, today()),
    ...closings.keys(),
    ...(span ? [fiscalYearNumberOf(cal, span.first), fiscalYearNumberOf(cal, span.last)] : []),
  ];
  const first = Math.min(...years);
  const last = Math.max(...years);
  const rows: FiscalYear[] = [];
  for (let year = first; year <= last; year++) {
    const entry = closings.get(year);
    const shape = fiscalYearNumbered(cal, year, span?.first ?? null);
    if (!shape) continue;
    rows.push({
      ...shape,
      closed: entry !== undefined,
      ...(entry !== undefined ? { closing_entry_id: entry } : {}),
    });
  }
  return pageOf(rows, page);
}

/**
 * POST /system/fiscal_years/{year}/close. The closing entry has one line per income and
 * expense account with a balance in the year (the balance negated) and one line on the
 * retained-earnings account for the result; a year without any is closed with an entry
 * without lines, so the year still shows as closed and reopening works the same way. The
 * entry is dated the year's last day even when the books are already closed up to it (that
 * is the usual order: close the books, then the year); the closing date then moves to the
 * year's end unless it is already later.
 */
export async function closeFiscalYear(c: ServiceContext, year: number): Promise<FiscalYear> {
  if (year < FIRST_YEAR || year > LAST_YEAR) throw notFound(`No fiscal year ${year}.`);
  // concurrent closings and close_books calls see each other's result
  const books = await lockClosingDate(c.tx, c.company.id);
  const shape = await yearOf(c, year);
  if (!shape)
    throw notFound(
      `No fiscal year ${year}: the first fiscal year ends on ${c.company.settings.first_fiscal_year_end}.`,
    );
  const { start, end } = shape;
  if (monthsOf(shape) > MAX_FIRST_YEAR_MONTHS)
    throw conflict(
      `Fiscal year ${year} would run from ${start} (the first posted line) to ${end}, more than ` +
        `${MAX_FIRST_YEAR_MONTHS} months; set a first_fiscal_year_end that fits (POST /system/company).`,
    );
  if ((await closingEntries(c.tx, c.company.id)).some((r) => r.fiscal_year === year))
    throw conflict(`Fiscal year ${year} is already closed.`);
  if (end > today()) throw conflict(`Fiscal year ${year} ends on ${end}; it can be closed from that day on.`);

  const balances = await resultBalances(c.tx, c.company.id, start, end);
  const lines: JournalLineRow[] = balances.map((b) => line(b.account_id, new Money(b.balance).negated(), null));
  const result = balances.reduce((sum, b) => sum.plus(b.balance), new Money(0));
  if (!result.isZero()) {
    const accno = c.company.settings.retained_earnings_account;
    if (typeof accno !== 'string' || accno === '') {
      throw ruleInvalid(
        "The company has no retained_earnings_account to book the year's result to; set it with POST /system/company.",
      );
    }
    const account = await accountByNumber(c.tx, c.company.id, accno);
    if (!account) throw ruleInvalid(`The retained_earnings_account ${accno} does not exist in the chart of accounts.`);
    lines.push(line(account.id, result, `Result of fiscal year ${year}`));
  }

  const entry = await postEntry(c, {
    reference: `CLOSE-${year}`,
    transdate: end,
    description: `Closing of fiscal year ${year}`,
    closing: true,
    fiscalYear: year,
    lines,
  });
  const previous = books.previous;
  const closed = previous !== null && previous > end ? previous : end;
  await books.moveTo(closed);
  await recordAudit(c.tx, c.company.id, c.actor, FISCAL_YEAR_ENTITY, year, 'close', {
    closing_entry_id: entry.id,
    reference: entry.reference,
    result: result.negated().toNumber(),
    closed_until: closed,
    previous,
  });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'fiscal_year.closed',
    resource: { type: 'fiscal_year', id: year, path: '/system/fiscal_years' },
    snapshot: { year, closing_entry_id: entry.id, result: result.negated().toString(), closed_until: closed },
  });
  return { year, start, end, closed: true, closing_entry_id: entry.id };
}

/** A closing line: the base amount with its side (closing entries are in the base currency). */
function line(accountId: number, amount: Money, description: string | null): JournalLineRow {
  return {
    accountId,
    description,
    debit: amount.isNegative() ? new Money(0) : amount,
    credit: amount.isNegative() ? amount.negated() : new Money(0),
    baseAmount: amount,
    // closing lines are unassigned: a report by dimension shows them in its unassigned column
    dimensions: null,
  };
}

/**
 * Called when the books' closing date moves back to `date` (POST /system/close_books with
 * reopen, in the same transaction): every closed year ending after `date` is reopened — its
 * closing entry is reversed by an entry dated the same last day of the year (also marked
 * closing, so the income statement shows the year's result again), and audited.
 */
export async function reopenFiscalYearsAfter(c: ServiceContext, date: string): Promise<number[]> {
  const reopened: number[] = [];
  for (const closing of await closingEntries(c.tx, c.company.id)) {
    const end = (await yearOf(c, closing.fiscal_year))?.end;
    if (end === undefined || end <= date) continue;
    const row = await lockJournal(c.tx, c.company.id, closing.id);
    if (!row) continue;
    const reversal = await reverseEntry(c, row, {
      date: end,
      description: `Reopening of fiscal year ${closing.fiscal_year}`,
    });
    await recordAudit(c.tx, c.company.id, c.actor, FISCAL_YEAR_ENTITY, closing.fiscal_year, 'reopen', {
      closing_entry_id: closing.id,
      reversal_id: reversal.id,
      closed_until: date,
    });
    await recordEvent(c.tx, c.company.id, c.actor, {
      type: 'fiscal_year.reopened',
      resource: { type: 'fiscal_year', id: closing.fiscal_year, path: '/system/fiscal_years' },
      snapshot: { year: closing.fiscal_year, reversal_id: reversal.id, closed_until: date },
    });
    reopened.push(closing.fiscal_year);
  }
  return reopened;
}
