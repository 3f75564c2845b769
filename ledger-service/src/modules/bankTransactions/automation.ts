import type { BodyOf, ResponseOf, contracts } from '@ledger/shared';
import { Money, amountJson } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { DomainError, conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { today } from '../../domain/period.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { findBankAccountWithChart, findChartAccount, type BankAccountWithChart } from '../bank/index.ts';
import { createTransaction } from '../arap/index.ts';
import { createJournalEntries, createJournalEntry } from '../journal/index.ts';
import { recordPayment } from '../payments/index.ts';
import { recordEvents, type EventInput } from '../events/index.ts';
import {
  addBankRule,
  firstRule,
  listRules,
  taxCodeAccount,
  bookingJson,
  type BankRule,
  type RuleBooking,
  type RuleLine,
} from '../bankRules/index.ts';
import { proposalsFor, type Proposal, type ProposalDocument, type ProposalLine } from './proposals.ts';
import {
  findLine,
  insertReconciliation,
  lastReconciled,
  ledgerBalance,
  markLineBooked,
  markLinesBooked,
  markReconciled,
  openDocuments,
  statementBalance,
  undoReconciliations,
  unmatchedLedgerLines,
  unmatchedLines,
  type BankTransactionRead,
  type LineBooking,
  type LockedLine,
} from './store.ts';

/**
 * Bank automation (docs/bank.md "Bank rules", "Proposals", "Reconciliation"): the rules applied
 * to the lines an import leaves unmatched, the proposals on unbooked lines, a booking made by a
 * rule (through the journal, arap and payments modules: this module writes no ledger lines
 * itself), the preview, a rule made from a booked line, and the reconciliation with the
 * statement balance.
 */

/** A line as the rules and proposals see it. */
export function lineOf(r: {
  bank_account_id: number;
  date: string;
  amount: string;
  currency: string;
  counterparty: string | null;
  iban: string | null;
  reference: string | null;
  text: string | null;
  reversal: boolean;
}): ProposalLine {
  return {
    bankAccountId: r.bank_account_id,
    date: r.date,
    amount: new Money(r.amount),
    currency: r.currency,
    counterparty: r.counterparty,
    iban: r.iban,
    reference: r.reference,
    text: r.text,
    reversal: r.reversal,
  };
}

/** The open documents in the lines' currencies, as proposals and settle rules use them. */
export async function documentsFor(c: ServiceContext, currencies: Iterable<string>): Promise<ProposalDocument[]> {
  const rows = await openDocuments(c.tx, c.company.id, [...new Set(currencies)]);
  return rows.map((r) => ({ ...r, open: new Money(r.open) }));
}

/** The base of what an import's or a person's booking needs about the line. */
interface BookedLine extends RuleLine {
  id: number;
  date: string;
}

/** A journal entry of the bank's chart account against another for a signed amount (money in: bank debit). */
async function journalAgainst(
  c: ServiceContext,
  bank: BankAccountWithChart,
  line: BookedLine,
  signed: Money,
  account: string,
  description: string | undefined,
  dimensions: Record<string, string> | null = null,
): Promise<number> {
  const value = signed.abs().toNumber();
  const bankLine = { account: bank.account, ...(signed.isPositive() ? { debit: value } : { credit: value }) };
  const otherLine = {
    account,
    ...(signed.isPositive() ? { credit: value } : { debit: value }),
    ...(dimensions ? { dimensions } : {}),
  };
  const { id } = await createJournalEntry(c, {
    input: { transdate: line.date, description, curr: line.currency, pending: '0', lines: [bankLine, otherLine] },
    files: [],
  });
  return id;
}

/**
 * Books a line as a rule says (docs/bank.md "What a rule books"): against an account (a journal
 * entry); with a party, as a posted document of that party (tax included in the amount) paid
 * at once from the bank account; or settling a document: its open amount paid, the difference
 * between line and open amount booked to the rule's difference account.
 */
export async function bookByRule(
  c: ServiceContext,
  bank: BankAccountWithChart,
  line: BookedLine,
  booking: RuleBooking,
  ruleId: number,
  memo: string | undefined,
): Promise<LineBooking> {
  const source = `bank transaction ${line.id}`;
  if (booking.kind === 'book') {
    const description = booking.description ?? memo;
    const chart = await findChartAccount(c.tx, c.company.id, booking.account);
    if (!chart) throw ruleInvalid(`Account ${booking.account} of the bank rule does not exist any more.`);
    if (booking.party_id === null) {
      const journalId = await journalAgainst(
        c,
        bank,
        line,
        line.amount,
        booking.account,
        description,
        booking.dimensions,
      );
      return { accountId: chart.id, journalId, ruleId };
    }
    const vc = line.amount.isPositive() ? 'customer' : 'vendor';
    const taxAccount = booking.tax === null ? undefined : await taxCodeAccount(c.tx, c.company.id, booking.tax);
    if (booking.tax !== null && taxAccount === undefined)
      throw ruleInvalid(`Tax code ${booking.tax} of the bank rule does not exist any more.`);
    const lines = [
      {
        account: booking.account,
        amount: booking.amount.toNumber(),
        ...(taxAccount ? { taxAccount } : {}),
        ...(booking.dimensions ? { dimensions: booking.dimensions } : {}),
      },
    ];
    const header = { invDate: line.date, curr: line.currency, pending: '0' as const, taxincluded: true, description };
    const input =
      vc === 'vendor'
        ? { ...header, vendor_id: booking.party_id, lines }
        : { ...header, customer_id: booking.party_id, lines };
    const doc = await createTransaction(
      {
        tx: c.tx,
        company: c.company,
        actor: c.actor,
        vc,
        read: {
          fileUrlBase: `/client/${c.company.dataset}/arap/transaction/${vc}`,
          baseCurrency: c.company.base_currency,
        },
      },
      { input, files: [] },
    );
    const { id: paymentId } = await recordPayment(c, vc, {
      document_id: doc.id,
      date: line.date,
      amount: booking.amount.toFixed(),
      account: bank.account,
      memo: description,
      source,
    });
    return { documentId: doc.id, paymentId, accountId: chart.id, ruleId };
  }
  const { id: paymentId } = await recordPayment(c, booking.vc, {
    document_id: booking.document_id,
    date: line.date,
    amount: booking.open.toFixed(),
    account: bank.account,
    memo,
    source,
  });
  // what the bank moved beyond the payment: customer payments put the open amount in, vendor payments take it out
  const paid = booking.vc === 'customer' ? booking.open : booking.open.negated();
  const rest = line.amount.minus(paid);
  if (rest.isZero()) return { documentId: booking.document_id, paymentId, ruleId };
  const journalId = await journalAgainst(
    c,
    bank,
    line,
    new Money(rest),
    booking.difference_account,
    `Difference to ${booking.document_number}${memo ? `: ${memo}` : ''}`,
  );
  return { documentId: booking.document_id, paymentId, journalId, ruleId };
}

function bankEvent(type: EventInput['type'], id: number, snapshot: Record<string, unknown>): EventInput {
  return { type, resource: { type: 'bank_transaction', id, path: `/bank/transactions/${id}` }, snapshot };
}

/**
 * After the built-in matching: each line still unmatched gets the first bank rule that matches
 * it (and, for a settle rule, finds its document); an `auto` rule books it now, as `matched`
 * with the rule's id. A booking another module refuses (closed period, approval limit, an
 * account changed since) is undone alone (its savepoint) and leaves the line for a person.
 */
export async function applyRulesAtImport(
  c: ServiceContext,
  bank: BankAccountWithChart,
  lines: readonly (BookedLine & { text: string | null; counterparty: string | null })[],
): Promise<number> {
  if (lines.length === 0) return 0;
  const allRules = await listRules(c.tx, c.company.id);
  if (!allRules.some((r) => r.auto)) return 0;
  const needsDocuments = allRules.some((r) => r.action.kind === 'settle');
  const documents = needsDocuments
    ? await documentsFor(
        c,
        lines.map((l) => l.currency),
      )
    : [];
  const events: EventInput[] = [];
  const memoOf = (line: { text: string | null; counterparty: string | null }) =>
    line.text ?? line.counterparty ?? undefined;
  // bookings to an account alone are journal entries: written together (createJournalEntries), one by one if refused
  const journalOnly: {
    line: (typeof lines)[number];
    booking: Extract<RuleBooking, { kind: 'book' }>;
    ruleId: number;
  }[] = [];
  for (const line of lines) {
    // first matching rule wins, auto or not: a proposing rule above an auto rule keeps the line for a person
    const hit = firstRule(allRules, line, documents);
    if (!hit?.rule.auto) continue;
    if (hit.booking.kind === 'book' && hit.booking.party_id === null) {
      journalOnly.push({ line, booking: hit.booking, ruleId: hit.rule.id });
      continue;
    }
    try {
      const by = await c.tx.transaction(async (sp) =>
        bookByRule({ ...c, tx: sp }, bank, line, hit.booking, hit.rule.id, memoOf(line)),
      );
      await markLineBooked(c.tx, c.company.id, line.id, 'matched', by);
      if (hit.booking.kind === 'settle') {
        const settled = hit.booking.document_id;
        for (const d of documents) if (d.id === settled) d.open = new Money(0);
      }
      events.push(bankEvent('bank_transaction.matched', line.id, { rule_id: hit.rule.id, ...by }));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  }
  const journaled = await bookJournalsTogether(c, bank, journalOnly, memoOf);
  for (const b of journaled) events.push(bankEvent('bank_transaction.matched', b.id, { ...b.by }));
  await recordEvents(c.tx, c.company.id, c.actor, events);
  return events.length;
}

/** The journal entry of a line booked to an account: bank against the account, money in debits the bank. */
function journalInput(
  bank: BankAccountWithChart,
  line: BookedLine,
  account: string,
  description: string | undefined,
  dimensions: Record<string, string> | null,
) {
  const value = line.amount.abs().toNumber();
  const bankLine = { account: bank.account, ...(line.amount.isPositive() ? { debit: value } : { credit: value }) };
  const otherLine = {
    account,
    ...(line.amount.isPositive() ? { credit: value } : { debit: value }),
    ...(dimensions ? { dimensions } : {}),
  };
  return {
    transdate: line.date,
    description,
    curr: line.currency,
    pending: '0' as const,
    lines: [bankLine, otherLine],
  };
}

/**
 * The rule bookings to an account alone, as one batch of journal entries in a savepoint
 * (createJournalEntries: a few statements for all); when one is refused, each again alone in
 * its own savepoint, so a refusal leaves only its line unmatched. The lines marked in one statement.
 */
async function bookJournalsTogether(
  c: ServiceContext,
  bank: BankAccountWithChart,
  items: readonly {
    line: BookedLine & { text: string | null; counterparty: string | null };
    booking: Extract<RuleBooking, { kind: 'book' }>;
    ruleId: number;
  }[],
  memoOf: (line: { text: string | null; counterparty: string | null }) => string | undefined,
): Promise<{ id: number; by: LineBooking }[]> {
  if (items.length === 0) return [];
  const chartIds = new Map<string, number>();
  for (const accno of new Set(items.map((i) => i.booking.account))) {
    const chart = await findChartAccount(c.tx, c.company.id, accno);
    if (chart) chartIds.set(accno, chart.id);
  }
  const bookable = items.filter((i) => chartIds.has(i.booking.account));
  const inputs = bookable.map((i) =>
    journalInput(bank, i.line, i.booking.account, i.booking.description ?? memoOf(i.line), i.booking.dimensions),
  );
  const done: { id: number; by: LineBooking }[] = [];
  const byOf = (i: (typeof bookable)[number], journalId: number): LineBooking => ({
    accountId: chartIds.get(i.booking.account)!,
    journalId,
    ruleId: i.ruleId,
  });
  try {
    const ids = await c.tx.transaction(async (sp) => createJournalEntries({ ...c, tx: sp }, inputs));
    for (const [k, i] of bookable.entries()) done.push({ id: i.line.id, by: byOf(i, ids[k]!) });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    for (const [k, i] of bookable.entries()) {
      try {
        const [id] = await c.tx.transaction(async (sp) => createJournalEntries({ ...c, tx: sp }, [inputs[k]!]));
        done.push({ id: i.line.id, by: byOf(i, id!) });
      } catch (one) {
        if (!(one instanceof DomainError)) throw one;
      }
    }
  }
  await markLinesBooked(c.tx, c.company.id, 'matched', done);
  return done;
}

/** Fills in the proposals of the unmatched lines of a page (one read of rules and open documents for all). */
export async function withProposals(c: ServiceContext, rows: BankTransactionRead[]): Promise<BankTransactionRead[]> {
  const open = rows.filter((r) => r.status === 'unmatched');
  if (open.length === 0) return rows;
  const rules = await listRules(c.tx, c.company.id);
  const documents = await documentsFor(
    c,
    open.map((r) => r.currency),
  );
  return rows.map((r) =>
    r.status !== 'unmatched'
      ? r
      : {
          ...r,
          proposals: proposalsFor(
            {
              bankAccountId: r.account_id,
              date: r.date,
              amount: new Money(r.amount),
              currency: r.currency,
              counterparty: r.counterparty ?? null,
              iban: r.iban ?? null,
              reference: r.reference ?? null,
              text: r.text ?? null,
              reversal: r.reversal ?? false,
            },
            documents,
            rules,
          ),
        },
  );
}

/** The proposals of one locked line, as accepting one sees them now. */
export async function proposalsOfLine(c: ServiceContext, line: LockedLine): Promise<Proposal[]> {
  const rules = await listRules(c.tx, c.company.id);
  const documents = await documentsFor(c, [line.currency]);
  return proposalsFor(lineOf(line), documents, rules);
}

/**
 * The proposal `index` of a locked, unmatched line, checked against what the caller expects
 * (document_id / rule_id sent with it): a proposal that no longer applies is a 409.
 */
export async function chosenProposal(
  c: ServiceContext,
  line: LockedLine,
  index: number,
  expect: { document_id?: number; rule_id?: number },
): Promise<Proposal> {
  const proposals = await proposalsOfLine(c, line);
  const p = proposals[index];
  if (!p) {
    throw conflict(
      `Bank transaction ${line.id} has ${proposals.length} proposal${proposals.length === 1 ? '' : 's'} now; ` +
        `proposal ${index} no longer applies.`,
      '/proposal',
    );
  }
  const wrongDocument =
    expect.document_id !== undefined && (p.kind !== 'document' || p.document_id !== expect.document_id);
  const wrongRule = expect.rule_id !== undefined && (p.kind !== 'rule' || p.rule_id !== expect.rule_id);
  if (wrongDocument || wrongRule) {
    const now = p.kind === 'document' ? `document ${p.document_number}` : `bank rule ${p.rule_id}`;
    throw conflict(
      `Proposal ${index} of bank transaction ${line.id} is now ${now}, not ` +
        `${expect.document_id !== undefined ? `document ${expect.document_id}` : `bank rule ${expect.rule_id}`}: ` +
        'read the transaction again.',
      '/proposal',
    );
  }
  return p;
}

/** Books a line as the rule proposed (a person accepted it): `booked`, with the rule's id. */
export async function acceptRuleProposal(
  c: ServiceContext,
  line: LockedLine,
  ruleId: number,
  memo: string | undefined,
): Promise<LineBooking> {
  const bank = (await findBankAccountWithChart(c.tx, c.company.id, line.bank_account_id))!;
  const rules = (await listRules(c.tx, c.company.id)).filter((r) => r.id === ruleId);
  const documents = await documentsFor(c, [line.currency]);
  const hit = firstRule(rules, lineOf(line), documents);
  if (!hit) throw conflict(`Bank rule ${ruleId} no longer applies to bank transaction ${line.id}.`, '/proposal');
  const by = await bookByRule(c, bank, { ...lineOf(line), id: line.id }, hit.booking, ruleId, memo);
  await markLineBooked(c.tx, c.company.id, line.id, 'booked', by);
  return by;
}

type PreviewBody = BodyOf<typeof contracts.previewBankRules>;
type PreviewResult = ResponseOf<typeof contracts.previewBankRules>;
/** The preview looks at this many unmatched lines at most (the oldest). */
const PREVIEW_LINES = 10_000;

/** What the rules would book for the unmatched lines, without booking (first matching rule per line). */
export async function previewRules(c: ServiceContext, body: PreviewBody): Promise<PreviewResult> {
  let rules: BankRule[] = await listRules(c.tx, c.company.id);
  if (body.ids !== undefined) {
    const known = new Set(rules.map((r) => r.id));
    const unknown = body.ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw ruleInvalid(`No bank rules with ids ${unknown.join(', ')}.`, '/ids');
    rules = rules.filter((r) => body.ids!.includes(r.id));
  }
  const lines = await unmatchedLines(c.tx, c.company.id, {
    ...(body.bank_account_id === undefined ? {} : { bankAccountId: body.bank_account_id }),
    limit: PREVIEW_LINES,
  });
  const documents = rules.some((r) => r.action.kind === 'settle')
    ? await documentsFor(
        c,
        lines.map((l) => l.currency),
      )
    : [];
  const out: PreviewResult = [];
  for (const l of lines) {
    const hit = firstRule(rules, lineOf(l), documents);
    if (hit)
      out.push({ transaction_id: l.id, rule_id: hit.rule.id, auto: hit.rule.auto, booking: bookingJson(hit.booking) });
  }
  return out;
}

type FromLineBody = BodyOf<typeof contracts.createBankRuleFromTransaction>;

/**
 * A rule from a line a person booked against an account: the line's counterparty (else its
 * IBAN, else its text, else its exact amount), direction and bank account as conditions, the
 * account as action. Lines booked as a payment or by a rule are refused (409).
 */
export async function ruleFromLine(c: ServiceContext, id: number, body: FromLineBody): Promise<{ id: number }> {
  const line = await findLine(c.tx, c.company.id, id);
  if (!line) throw notFound(`No bank transaction with id ${id}.`);
  if (line.status !== 'booked' || line.booked_account === null) {
    throw conflict(
      `Bank transaction ${id} is not booked by hand against an account (it is ${line.status}): a rule is made from ` +
        'such a line; for payments of documents write a settle rule (POST /bank/rules).',
    );
  }
  const amount = new Money(line.amount);
  const said = line.counterparty
    ? { counterparty: line.counterparty }
    : line.iban
      ? { iban: line.iban }
      : line.text
        ? { text: line.text.slice(0, 200) }
        : { amount_min: amount.abs().toNumber(), amount_max: amount.abs().toNumber() };
  return addBankRule(c, {
    name: body.name ?? line.counterparty ?? `Bank line ${id}`,
    auto: body.auto ?? false,
    conditions: {
      direction: amount.isPositive() ? 'in' : 'out',
      bank_account_id: line.bank_account_id,
      ...said,
    },
    action: { kind: 'book', account: line.booked_account },
  });
}

// --- reconciliation ------------------------------------------------------------------------

type Reconciliation = ResponseOf<typeof contracts.getBankReconciliation>;
/** The reconciliation lists at most this many unbooked bank lines and ledger lines each. */
const RECONCILIATION_LINES = 1000;

async function bankAccountOf(c: ServiceContext, id: number): Promise<BankAccountWithChart> {
  const bank = await findBankAccountWithChart(c.tx, c.company.id, id);
  if (!bank) throw notFound(`No bank account with id ${id}.`);
  return bank;
}

/** Statement balance, ledger balance, difference, unbooked lines and ledger lines without a bank line, up to a date. */
export async function reconciliation(c: ServiceContext, id: number, date: string | undefined): Promise<Reconciliation> {
  const bank = await bankAccountOf(c, id);
  const latest = date === undefined ? await statementBalance(c.tx, c.company.id, id, null) : undefined;
  const day = date ?? latest?.date ?? today();
  const statement = latest ?? (await statementBalance(c.tx, c.company.id, id, day));
  const foreign = bank.currency !== c.company.base_currency;
  const ledger = new Money(await ledgerBalance(c.tx, c.company.id, bank.account_id, day, foreign));
  const n = (v: Money | string) => amountJson(v, bank.currency);
  const unbooked = (await unmatchedLines(c.tx, c.company.id, { bankAccountId: id, limit: RECONCILIATION_LINES }))
    .filter((l) => l.date <= day)
    .map((l) => ({ id: l.id, date: l.date, amount: n(l.amount), counterparty: l.counterparty, text: l.text }));
  const ledgerLines = await unmatchedLedgerLines(c.tx, c.company.id, id, bank.account_id, day, RECONCILIATION_LINES);
  return {
    date: day,
    statement_balance: statement ? n(statement.closing) : null,
    statement_date: statement?.date ?? null,
    ledger_balance: n(ledger),
    difference: statement ? n(new Money(statement.closing).minus(ledger)) : null,
    reconciled_to: await lastReconciled(c.tx, c.company.id, id),
    unbooked,
    unmatched_ledger_lines: ledgerLines.map((l) => ({ ...l, amount: n(l.amount) })),
  };
}

type ReconcileBody = BodyOf<typeof contracts.reconcileBankAccount>;

/**
 * Marks the booked lines up to the date reconciled when the statement balance given equals the
 * ledger balance; else 409 naming the difference and the unbooked lines.
 */
export async function reconcile(c: ServiceContext, id: number, body: ReconcileBody) {
  const bank = await bankAccountOf(c, id);
  const foreign = bank.currency !== c.company.base_currency;
  const ledger = new Money(await ledgerBalance(c.tx, c.company.id, bank.account_id, body.date, foreign));
  const given = new Money(body.statement_balance);
  if (!given.equals(ledger)) {
    const unbooked = (await unmatchedLines(c.tx, c.company.id, { bankAccountId: id, limit: 20 })).filter(
      (l) => l.date <= body.date,
    );
    const lines = unbooked
      .map(
        (l) => `${l.id} (${l.date}, ${new Money(l.amount).toFixed(2)}${l.counterparty ? `, ${l.counterparty}` : ''})`,
      )
      .join('; ');
    throw conflict(
      `The statement balance ${given.toFixed(2)} differs from the ledger balance ${ledger.toFixed(2)} of account ` +
        `${bank.account} on ${body.date} by ${given.minus(ledger).toFixed(2)} ${bank.currency}` +
        `${unbooked.length > 0 ? `; unbooked bank lines: ${lines}` : ''}.`,
      '/statement_balance',
    );
  }
  const reconciled = await markReconciled(c.tx, c.company.id, id, body.date);
  await insertReconciliation(c.tx, c.company.id, {
    bankAccountId: id,
    date: body.date,
    statementBalance: given.toFixed(),
    lines: reconciled,
    userId: c.actor.userId,
  });
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_account', id, 'reconcile', {
    date: body.date,
    statement_balance: given.toString(),
    lines: reconciled,
  });
  return {
    date: body.date,
    statement_balance: n2(given, bank.currency),
    ledger_balance: n2(ledger, bank.currency),
    reconciled,
  };
}

const n2 = (v: Money, currency: string) => amountJson(v, currency);

/** Undoes the account's reconciliations of `from` and later (their lines may be reversed again); audited. */
export async function unreconcile(c: ServiceContext, id: number, from: string): Promise<void> {
  await bankAccountOf(c, id);
  const lines = await undoReconciliations(c.tx, c.company.id, id, from);
  await recordAudit(c.tx, c.company.id, c.actor, 'bank_account', id, 'unreconcile', { from, lines });
}
