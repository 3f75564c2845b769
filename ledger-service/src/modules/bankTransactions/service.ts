import type { BodyOf, ResponseOf, contracts } from '@ledger/shared';
import { Money } from '@ledger/shared';
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import { DomainError, conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { today } from '../../domain/period.ts';
import type { ServiceContext } from '../serviceContext.ts';
import {
  findBankAccountByIban,
  findBankAccountWithChart,
  findChartAccount,
  type BankAccountWithChart,
} from '../bank/index.ts';
import { documentCurrency } from '../arap/index.ts';
import { recordPayment, recordPayments, type PaymentInput } from '../payments/index.ts';
import { createJournalEntry } from '../journal/index.ts';
import {
  checkBalances,
  entryKeys,
  matchDocument,
  numberTokens,
  type BalanceCheck,
  type MatchCandidates,
  type OpenDocument,
  type ParsedStatement,
} from './rules.ts';
import {
  findLine,
  findTransaction,
  insertStatementBalances,
  insertTransactions,
  listTransactions,
  lockTransaction,
  markBooked,
  markMatched,
  matchCandidates,
  type BankTransactionRead,
  type InsertedTransaction,
  type TransactionFilter,
} from './store.ts';
import { recordEvent, recordEvents, type EventInput } from '../events/index.ts';
import { acceptRuleProposal, applyRulesAtImport, chosenProposal, withProposals } from './automation.ts';

/**
 * Bank statement import, matching and booking (docs/bank.md). Every
 * function runs inside the request's tenant transaction: a refused file writes nothing.
 * Payments are recorded through the payments module (recordPayment), bookings against an
 * account through the journal module (createJournalEntry): this module writes no ledger
 * lines itself.
 */

export type ImportResult = ResponseOf<typeof contracts.importBankTransactions>;

async function accountForStatement(
  c: ServiceContext,
  s: ParsedStatement,
  given: BankAccountWithChart | undefined,
): Promise<BankAccountWithChart> {
  if (s.iban !== null) {
    const named = await findBankAccountByIban(c.tx, c.company.id, s.iban);
    if (!named)
      throw ruleInvalid(`IBAN ${s.iban} of the statement is not a bank account of the company (GET /bank/accounts).`);
    if (given && given.id !== named.id) {
      throw ruleInvalid(
        `The statement is for IBAN ${s.iban} (bank account ${named.id}), not for bank account ${given.id} ` +
          `named by ?account=.`,
        '/account',
      );
    }
    return named;
  }
  if (!given) {
    throw ruleInvalid(
      `The ${s.source === 'csv' ? 'CSV file' : 'statement'} does not name its account by IBAN` +
        `${s.accountLabel ? ` (it says "${s.accountLabel}")` : ''}: name the bank account with ?account=<id>.`,
      '/account',
    );
  }
  return given;
}

/** The last booking date of a statement (its closing balance's date when the file gives none). */
function lastDate(s: ParsedStatement): string {
  const dates = s.entries.map((e) => e.date).sort();
  return dates[dates.length - 1] ?? today();
}

/** Entries, statement and balances must all be in the account's currency. */
function assertCurrency(s: ParsedStatement, account: BankAccountWithChart): void {
  const expected = account.currency;
  const wrong = (what: string, currency: string) =>
    ruleInvalid(`${what} is in ${currency}, but bank account ${account.id} (${account.iban}) is in ${expected}.`);
  if (s.currency !== null && s.currency !== expected) throw wrong(`The statement${s.id ? ` ${s.id}` : ''}`, s.currency);
  for (const b of [s.opening, s.closing])
    if (b && b.currency !== expected) throw wrong('A balance of the statement', b.currency);
  const entry = s.entries.find((e) => e.currency !== expected);
  if (entry) throw wrong(`The entry of ${entry.date} over ${entry.amount.abs().toFixed()}`, entry.currency);
}

/** Imports the statements of one file (read on a parsing thread before the transaction: statementFile.ts). */
export async function importStatements(
  c: ServiceContext,
  statements: ParsedStatement[],
  mediaType: string,
  query: { account?: number },
): Promise<ImportResult> {
  let given: BankAccountWithChart | undefined;
  if (query.account !== undefined) {
    given = await findBankAccountWithChart(c.tx, c.company.id, query.account);
    if (!given) throw ruleInvalid(`No bank account with id ${query.account}.`, '/account');
  }
  // every statement is checked before anything is written
  const accounts: BankAccountWithChart[] = [];
  for (const s of statements) {
    const account = await accountForStatement(c, s, given);
    assertCurrency(s, account);
    accounts.push(account);
  }

  let imported = 0;
  let duplicates = 0;
  let matched = 0;
  const checks: (BalanceCheck & {
    source: ParsedStatement['source'];
    account_id: number;
    entries: number;
    skipped: number;
  })[] = [];
  for (const [i, s] of statements.entries()) {
    const account = accounts[i]!;
    const keys = entryKeys(s.entries);
    const inserted = await insertTransactions(
      c.tx,
      c.company.id,
      account.id,
      s.entries.map((e, j) => ({ ...e, key: keys[j]!, source: s.source })),
    );
    imported += inserted.length;
    duplicates += s.entries.length - inserted.length;
    await recordEvents(
      c.tx,
      c.company.id,
      c.actor,
      inserted.map((r) =>
        bankEvent('bank_transaction.imported', r.id, { ...bankSnapshot(r), bank_account_id: account.id }),
      ),
    );
    const matchedIds = await matchAndBook(c, account, inserted);
    matched += matchedIds.size;
    // the bank rules after the built-in matching: the lines it left, first matching rule wins
    matched += await applyRulesAtImport(
      c,
      account,
      inserted
        .filter((r) => !matchedIds.has(r.id))
        .map((r) => ({
          id: r.id,
          date: r.date,
          amount: new Money(r.amount),
          currency: r.currency,
          bankAccountId: account.id,
          counterparty: r.counterparty,
          iban: r.iban,
          reference: r.reference,
          text: r.text,
        })),
    );
    if (s.source === 'camt.053' && s.closing) {
      await insertStatementBalances(c.tx, c.company.id, [
        {
          bankAccountId: account.id,
          statementId: s.id ?? '',
          date: s.closing.date ?? lastDate(s),
          closing: s.closing.amount.toFixed(),
          currency: s.closing.currency,
        },
      ]);
    }
    checks.push({
      source: s.source,
      account_id: account.id,
      entries: s.entries.length,
      skipped: s.skipped,
      ...checkBalances(s),
    });
  }
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_import', null, 'import', {
    media_type: mediaType,
    statements: checks.map((s) => ({ statement: s.statement, account_id: s.account_id, balanced: s.balanced })),
    imported,
    duplicates,
    matched,
  });
  const balanced = checks.some((s) => s.balanced === false)
    ? false
    : checks.some((s) => s.balanced === true)
      ? true
      : null;
  return { imported, duplicates, matched, balanced, statements: checks };
}

/** The candidates the new transactions could pay, in three indexed lookups. */
async function candidatesFor(
  tx: Tx,
  companyId: number,
  rows: readonly InsertedTransaction[],
): Promise<MatchCandidates> {
  const references = new Set<string>();
  const numbers = new Set<string>();
  const endToEndIds = new Set<string>();
  for (const r of rows) {
    if (r.reversal) continue;
    if (new Money(r.amount).isPositive()) {
      if (r.reference !== null) references.add(r.reference);
      if (r.text !== null) for (const t of numberTokens(r.text)) numbers.add(t);
    } else if (r.end_to_end_id !== null) endToEndIds.add(r.end_to_end_id);
  }
  const found = await matchCandidates(tx, companyId, {
    references: [...references],
    numbers: [...numbers],
    endToEndIds: [...endToEndIds],
  });
  const byReference = new Map<string, OpenDocument>();
  const byNumber = new Map<string, OpenDocument>();
  const documents = new Map<number, OpenDocument>(found.documents.map((d) => [d.id, d]));
  for (const d of documents.values()) {
    if (d.vc !== 'customer') continue;
    if (d.qrReference !== null) byReference.set(d.qrReference, d);
    byNumber.set(d.invNumber, d);
  }
  const byEndToEnd = new Map<string, OpenDocument & { fileAmount: Decimal }>();
  for (const p of found.payments)
    byEndToEnd.set(p.endToEndId, { ...documents.get(p.documentId)!, fileAmount: new Money(p.amount) });
  return { byReference, byNumber, byEndToEnd };
}

/** A new transaction paired with the document it pays. */
type Pairing = { row: InsertedTransaction; doc: OpenDocument; amount: Decimal };

/**
 * The new transactions the matching rules pair with exactly one open document, in file
 * order. A document paid by one transaction is not paid again by a later one of the same
 * import: its open amount goes down as it is paired (as booking it would).
 */
function pairings(rows: readonly InsertedTransaction[], candidates: MatchCandidates): Pairing[] {
  const out: Pairing[] = [];
  for (const row of rows) {
    const amount = new Money(row.amount);
    const doc = matchDocument(
      {
        amount,
        currency: row.currency,
        reference: row.reference,
        endToEndId: row.end_to_end_id,
        text: row.text,
        reversal: row.reversal,
      },
      candidates,
    );
    if (!doc) continue;
    doc.open = doc.open.minus(amount.abs());
    out.push({ row, doc, amount });
  }
  return out;
}

/** The payment (payments module) that books a paired transaction for its document. */
const paymentInput = (account: BankAccountWithChart, p: Pairing): PaymentInput => ({
  document_id: p.doc.id,
  date: p.row.date,
  amount: p.amount.abs().toFixed(),
  account: account.account,
  memo: p.row.text ?? undefined,
  source: `bank transaction ${p.row.id}`,
});

/** Records one paired transaction as its document's payment (payments module); the payment's id. */
async function pay(c: ServiceContext, account: BankAccountWithChart, p: Pairing): Promise<number> {
  const { id } = await recordPayment(c, p.doc.vc, paymentInput(account, p));
  return id;
}

/** Records all paired transactions of one side as one batch of payments (recordPayments: a few statements for all). */
async function payAll(
  c: ServiceContext,
  account: BankAccountWithChart,
  paired: readonly Pairing[],
): Promise<{ id: number; documentId: number; paymentId: number }[]> {
  const done: { id: number; documentId: number; paymentId: number }[] = [];
  for (const vc of ['customer', 'vendor'] as const) {
    const side = paired.filter((p) => p.doc.vc === vc);
    if (side.length === 0) continue;
    const ids = await recordPayments(
      c,
      vc,
      side.map((p) => paymentInput(account, p)),
    );
    for (const [k, p] of side.entries()) done.push({ id: p.row.id, documentId: p.doc.id, paymentId: ids[k]!.id });
  }
  return done;
}

/**
 * Books the new transactions the matching rules pair with exactly one open document, as that
 * document's payment on the bank account's chart account. A payment the payments module
 * refuses (closed period, approval limit, a foreign-currency document needing a rate, the
 * account's link) leaves the transaction unmatched for a person to book.
 *
 * All payments are first recorded together, one batch per side (recordPayments: a few
 * statements for the whole batch), in one savepoint, as usually none is refused; if one is,
 * that savepoint is undone and each is tried again alone in its own savepoint, so a refusal
 * undoes only itself. The transactions booked are marked in one statement at the end. Returns
 * the ids of the transactions booked.
 */
async function matchAndBook(
  c: ServiceContext,
  account: BankAccountWithChart,
  rows: readonly InsertedTransaction[],
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const candidates = await candidatesFor(c.tx, c.company.id, rows);
  const documents = new Set<OpenDocument>([
    ...candidates.byReference.values(),
    ...candidates.byNumber.values(),
    ...candidates.byEndToEnd.values(),
  ]);
  const openBefore = new Map([...documents].map((d) => [d, d.open]));
  const paired = pairings(rows, candidates);
  if (paired.length === 0) return new Set();
  let booked: { id: number; documentId: number; paymentId: number }[];
  try {
    booked = await c.tx.transaction(async (sp) => payAll({ ...c, tx: sp }, account, paired));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // one at a time, as if nothing had been paired: a refused payment leaves its document open for a later transaction
    for (const [d, open] of openBefore) d.open = open;
    booked = [];
    for (const row of rows) {
      const [p] = pairings([row], candidates);
      if (!p) continue;
      try {
        const paymentId = await c.tx.transaction(async (sp) => pay({ ...c, tx: sp }, account, p));
        booked.push({ id: row.id, documentId: p.doc.id, paymentId });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        p.doc.open = p.doc.open.plus(p.amount.abs());
      }
    }
  }
  await markMatched(c.tx, c.company.id, booked);
  await recordEvents(
    c.tx,
    c.company.id,
    c.actor,
    booked.map((b) =>
      bankEvent('bank_transaction.matched', b.id, { document_id: b.documentId, payment_id: b.paymentId }),
    ),
  );
  return new Set(booked.map((b) => b.id));
}

function bankEvent(type: EventInput['type'], id: number, snapshot: Record<string, unknown>): EventInput {
  return { type, resource: { type: 'bank_transaction', id, path: `/bank/transactions/${id}` }, snapshot };
}

function bankSnapshot(r: InsertedTransaction): Record<string, unknown> {
  // the amount as other events write amounts ("108.1", not the column's "108.100000")
  return { date: r.date, amount: new Money(r.amount).toString(), currency: r.currency, reference: r.reference };
}

async function transactionRead(tx: Tx, companyId: number, id: number): Promise<BankTransactionRead> {
  const row = await findTransaction(tx, companyId, id);
  if (!row) throw notFound(`No bank transaction with id ${id}.`);
  return row;
}

/** One transaction with its proposals (unmatched lines only). */
export async function bankTransactionById(c: ServiceContext, id: number): Promise<BankTransactionRead> {
  const [row] = await withProposals(c, [await transactionRead(c.tx, c.company.id, id)]);
  return row!;
}

/** A page of transactions, the unmatched ones with their proposals. */
export async function listBankTransactions(c: ServiceContext, f: TransactionFilter) {
  const page = await listTransactions(c.tx, c.company.id, f);
  return { ...page, rows: await withProposals(c, page.rows) };
}

type BookInput = BodyOf<typeof contracts.bookBankTransaction>;

/**
 * Books an unmatched transaction by hand: as the payment of a document (a credit pays a
 * customer document, a debit a vendor document) or against a chart account (a posted
 * journal entry, bank account against that account). The row is locked first, so booking
 * the same transaction twice — also concurrently — is a 409.
 */
export async function bookBankTransaction(
  c: ServiceContext,
  id: number,
  input: BookInput,
): Promise<BankTransactionRead> {
  if (input.proposal !== undefined) {
    if (input.account !== undefined) throw ruleInvalid('Send either proposal or account, not both.', '/account');
  } else if (input.rule_id !== undefined) {
    throw ruleInvalid('rule_id goes with proposal: it names the rule the proposal must be.', '/rule_id');
  } else if ((input.document_id === undefined) === (input.account === undefined)) {
    throw ruleInvalid(
      'Send either document_id (book as a payment of that document) or account (book against that chart account), ' +
        "or proposal (accept one of the transaction's proposals).",
      input.document_id === undefined ? '/document_id' : '/account',
    );
  }
  const row = await lockTransaction(c.tx, c.company.id, id);
  if (!row) throw notFound(`No bank transaction with id ${id}.`);
  if (row.status !== 'unmatched') throw conflict(`Bank transaction ${id} is already ${row.status}.`);
  let documentId = input.document_id;
  if (input.proposal !== undefined) {
    const line = (await findLine(c.tx, c.company.id, id))!;
    const expect = {
      ...(input.document_id === undefined ? {} : { document_id: input.document_id }),
      ...(input.rule_id === undefined ? {} : { rule_id: input.rule_id }),
    };
    const chosen = await chosenProposal(c, line, input.proposal, expect);
    if (chosen.kind === 'rule') {
      const memo = input.description ?? row.text ?? row.counterparty ?? undefined;
      const by = await acceptRuleProposal(c, line, chosen.rule_id, memo);
      await recordAudit(c.tx, c.company.id, c.actor, 'bank_transaction', id, 'book', {
        proposal: input.proposal,
        rule_id: chosen.rule_id,
        amount: new Money(row.amount).toNumber(),
        currency: row.currency,
      });
      await recordEvent(
        c.tx,
        c.company.id,
        c.actor,
        bankEvent('bank_transaction.booked', id, {
          date: row.date,
          amount: new Money(row.amount).toString(),
          currency: row.currency,
          rule_id: chosen.rule_id,
          ...by,
        }),
      );
      return bankTransactionById(c, id);
    }
    documentId = chosen.document_id;
  }
  const bank = (await findBankAccountWithChart(c.tx, c.company.id, row.bank_account_id))!;
  const amount = new Money(row.amount);
  if (amount.isZero())
    throw ruleInvalid(`Bank transaction ${id} is over 0.00 ${row.currency}; there is nothing to book.`);
  const memo = input.description ?? row.text ?? row.counterparty ?? undefined;

  if (documentId !== undefined) {
    const vc = amount.isPositive() ? 'customer' : 'vendor';
    const currency = await documentCurrency(c.tx, c.company.id, vc, documentId);
    if (currency === undefined) {
      throw ruleInvalid(
        `No ${vc} document with id ${documentId}: a ` +
          `${amount.isPositive() ? 'credit pays a customer' : 'debit pays a vendor'} document.`,
        '/document_id',
      );
    }
    if (currency !== row.currency) {
      throw ruleInvalid(
        `Document ${documentId} is in ${currency}, the bank transaction in ${row.currency}.`,
        '/document_id',
      );
    }
    const { id: paymentId } = await recordPayment(c, vc, {
      document_id: documentId,
      date: row.date,
      amount: amount.abs().toFixed(),
      account: bank.account,
      ...(input.exchangerate === undefined ? {} : { exchangerate: String(input.exchangerate) }),
      memo,
      source: `bank transaction ${id}`,
    });
    await markBooked(c.tx, c.company.id, id, 'booked', { documentId: documentId, paymentId });
  } else {
    const accno = input.account!;
    const chart = await findChartAccount(c.tx, c.company.id, accno);
    if (!chart) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, '/account');
    const value = amount.abs().toNumber();
    // money in: bank debit, the account credit; money out: the other way round
    const bankLine = { account: bank.account, ...(amount.isPositive() ? { debit: value } : { credit: value }) };
    const otherLine = { account: accno, ...(amount.isPositive() ? { credit: value } : { debit: value }) };
    let journal: { id: number };
    try {
      journal = await createJournalEntry(c, {
        input: {
          transdate: row.date,
          description: memo,
          curr: row.currency,
          pending: '0',
          lines: [bankLine, otherLine],
          ...(input.exchangerate === undefined ? {} : { exchangerate: input.exchangerate }),
        },
        files: [],
      });
    } catch (err) {
      // the journal's refusal of its second line is a refusal of the account sent
      if (err instanceof DomainError && err.field?.startsWith('/lines/1'))
        throw new DomainError(err.code, err.message, '/account');
      if (err instanceof DomainError && err.field?.startsWith('/transdate'))
        throw new DomainError(err.code, err.message);
      throw err;
    }
    await markBooked(c.tx, c.company.id, id, 'booked', { accountId: Number(chart.id), journalId: journal.id });
  }
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_transaction', id, 'book', {
    ...(documentId !== undefined ? { document_id: documentId } : { account: input.account }),
    amount: amount.toNumber(),
    currency: row.currency,
  });
  await recordEvent(
    c.tx,
    c.company.id,
    c.actor,
    bankEvent('bank_transaction.booked', id, {
      date: row.date,
      amount: amount.toString(),
      currency: row.currency,
      ...(documentId !== undefined ? { document_id: documentId } : { account: input.account }),
    }),
  );
  return bankTransactionById(c, id);
}
