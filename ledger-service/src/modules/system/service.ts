import type { BodyOf, contracts } from '@ledger/shared';
import { createApiKey, deleteApiKey } from '../../db/apiKeys.ts';
import { recordAudit } from '../../db/audit.ts';
import { lockClosingDate } from '../../db/companies.ts';
import { authorize } from '../../domain/access.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import { BOOK_ACCOUNT_FIELDS, BOOK_ACCOUNT_RULES } from '../company/index.ts';
import { reopenFiscalYearsAfter } from '../fiscalYears/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { recordEvent } from '../events/index.ts';
import { checkAccountChange, linkString, type AccountShape, type AccountUse } from './rules.ts';
import {
  accountReferences,
  chartAccount,
  insertAccount,
  lockAccount,
  updateAccount,
  type AccountReferences,
  type ChartAccount,
} from './store.ts';

/** API keys of the company: created for the acting member, audited. */
export async function addApiKey(c: ServiceContext, label: string): ReturnType<typeof createApiKey> {
  const created = await createApiKey(c.tx, c.company.id, c.actor.userId, label);
  await recordAudit(c.tx, c.company.id, c.actor, 'api_key', created.id, 'create', { label: created.label });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'api_key.created',
    resource: { type: 'api_key', id: created.id, path: '/system/api_keys' },
    snapshot: { label: created.label, prefix: created.prefix },
  });
  return created;
}

export async function removeApiKey(c: ServiceContext, id: number): Promise<void> {
  if (!(await deleteApiKey(c.tx, c.company.id, id))) throw notFound(`No API key with id ${id}.`);
  await recordAudit(c.tx, c.company.id, c.actor, 'api_key', id, 'delete');
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'api_key.deleted',
    resource: { type: 'api_key', id, path: '/system/api_keys' },
    snapshot: {},
  });
}

/**
 * Books closed up to and including `date`; any write dated on or before it is refused with
 * 422 closed_period. Moving the date forward (or sending the same date) needs
 * `system.close_books` (owner, admin; checked by the contract). Moving it back reopens the
 * days after the new date, which changes periods that may already have been reported: it
 * is refused (409) unless `reopen` is true, which needs `system.reopen_books` (owners
 * only), and it is audited as `reopen_books`.
 */
export async function closeBooks(c: ServiceContext, date: string, reopen: boolean): Promise<{ date: string }> {
  // concurrent closings must see each other's date
  const books = await lockClosingDate(c.tx, c.company.id);
  const previous = books.previous;
  const movesBack = previous !== null && date < previous;
  if (movesBack && !reopen) {
    throw conflict(
      `The books are closed up to ${previous}; closing up to ${date} would reopen the days after it. Send ` +
        `reopen: true to do that (owners only).`,
      '/date',
    );
  }
  if (movesBack) authorize(c.actor, 'system.reopen_books', null);
  await books.moveTo(date);
  // reopening the days after `date` reopens the closed fiscal years among them (their closing entries are reversed)
  const reopenedYears = movesBack ? await reopenFiscalYearsAfter(c, date) : [];
  await recordAudit(c.tx, c.company.id, c.actor, 'company', c.company.id, movesBack ? 'reopen_books' : 'close_books', {
    closed_until: date,
    previous,
    ...(reopenedYears.length > 0 ? { reopened_fiscal_years: reopenedYears } : {}),
  });
  return { date };
}

// --- chart of accounts ---------------------------------------------------------------

const hasLink =
  (...links: string[]) =>
  (a: AccountShape) =>
    links.some((l) => a.links.includes(l));
const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/** Every use the company gives the account: its settings, bank accounts, services and tax rates. */
function accountUses(c: ServiceContext, accno: string, refs: AccountReferences): AccountUse[] {
  const settings = c.company.settings;
  const uses: AccountUse[] = [];
  if (settings.ap_account === accno)
    uses.push({
      what: 'the default payable account (company setting ap_account)',
      needs: 'link AP',
      fits: hasLink('AP'),
    });
  if (settings.ar_account === accno)
    uses.push({
      what: 'the default receivable account (company setting ar_account)',
      needs: 'link AR',
      fits: hasLink('AR'),
    });
  for (const field of BOOK_ACCOUNT_FIELDS) {
    if (settings[field] !== accno) continue;
    const rule = BOOK_ACCOUNT_RULES[field];
    uses.push({
      what: `the company's ${field.replace(/_/g, ' ')} (setting ${field})`,
      needs: rule.what,
      fits: (a) => rule.fits(a),
    });
  }
  if (refs.bankAccounts.length > 0) {
    uses.push({
      what: `the book account of the bank account ${list(refs.bankAccounts)}`,
      needs: 'link AR_paid or AP_paid',
      fits: hasLink('AR_paid', 'AP_paid'),
    });
  }
  const { income, expense, tax } = refs.services;
  if (income.length > 0)
    uses.push({
      what: `the income account of the service ${list(income)}`,
      needs: 'link AR_amount',
      fits: hasLink('AR_amount'),
    });
  if (expense.length > 0)
    uses.push({
      what: `the expense account of the service ${list(expense)}`,
      needs: 'link AP_amount',
      fits: hasLink('AP_amount'),
    });
  if (tax.length > 0)
    uses.push({
      what: `the tax account of the service ${list(tax)}`,
      needs: 'link AR_tax or AP_tax',
      fits: hasLink('AR_tax', 'AP_tax'),
    });
  if (refs.taxRates.length > 0) {
    uses.push({
      what: `the account of the tax rate ${list(refs.taxRates)}`,
      needs: 'link AR_tax or AP_tax',
      fits: hasLink('AR_tax', 'AP_tax'),
    });
  }
  return uses;
}

async function accountRead(c: ServiceContext, accno: string): Promise<ChartAccount> {
  const account = await chartAccount(c.tx, c.company.id, accno);
  if (!account) throw new Error(`account ${accno} vanished within its own transaction`);
  return account;
}

/** A new account: its number must be free (409 naming accno); audited. */
export async function addChartAccount(
  c: ServiceContext,
  input: BodyOf<typeof contracts.createChartAccount>,
): Promise<ChartAccount> {
  if (await lockAccount(c.tx, c.company.id, input.accno))
    throw conflict(`Account ${input.accno} already exists.`, '/accno');
  const account = {
    accno: input.accno,
    description: input.description,
    category: input.category,
    link: linkString(input.links ?? []),
  };
  const id = await insertAccount(c.tx, c.company.id, account);
  await recordAudit(c.tx, c.company.id, c.actor, 'account', id, 'create', account);
  return accountRead(c, input.accno);
}

/**
 * Changes the fields sent (rules.ts checkAccountChange: nothing that would change what its
 * postings mean, nothing that makes it unfit for a use the company gives it); audited with
 * each changed field's old and new value.
 */
export async function changeChartAccount(
  c: ServiceContext,
  accno: string,
  input: BodyOf<typeof contracts.updateChartAccount>,
): Promise<ChartAccount> {
  const stored = await lockAccount(c.tx, c.company.id, accno);
  if (!stored) throw notFound(`No account ${accno} in the chart.`);
  const before: AccountShape = {
    accno,
    description: stored.description,
    category: stored.category,
    links: stored.link ? stored.link.split(':') : [],
  };
  const after: AccountShape = {
    accno,
    description: input.description ?? before.description,
    category: input.category ?? before.category,
    links: input.links ?? before.links,
  };
  const refs = await accountReferences(c.tx, c.company.id, stored.id);
  checkAccountChange(before, after, refs.posted, accountUses(c, accno, refs));
  const link = linkString(after.links);
  await updateAccount(c.tx, c.company.id, stored.id, {
    description: after.description,
    category: after.category,
    link,
  });
  const changes = Object.fromEntries(
    [
      ['description', before.description, after.description],
      ['category', before.category, after.category],
      ['link', stored.link, link],
    ]
      .filter(([, from, to]) => from !== to)
      .map(([field, from, to]) => [field, { from, to }]),
  );
  await recordAudit(c.tx, c.company.id, c.actor, 'account', stored.id, 'update', { accno, ...changes });
  return accountRead(c, accno);
}
