import { amountJson, Money, roleHas, type Permission, type Vc } from '@ledger/shared';
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../db/knex.ts';
import { closedUntil } from '../../db/companies.ts';
import { auditRow, recordAudit } from '../../db/audit.ts';
import { conflict, forbidden, notFound, ruleInvalid } from '../../domain/errors.ts';
import { refuseIfReconciled } from '../bank/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { recordEvent } from '../events/index.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { openDocumentsAsOf, readPayment, type PaymentRead } from './reads.ts';
import {
  agingRows,
  assertPayable,
  assertPaymentAccount,
  assertPaymentDate,
  assertWithinApprovalLimit,
  checkAllocation,
  clearedShare,
  computePaymentPosting,
  openAmount,
  paymentAmount,
  paymentRate,
  reversePaymentLines,
  type AgingAmounts,
  type AgingRow,
  type PaidDocument,
  type PaymentAccount,
  type PaymentLine,
  type PaymentPosting,
} from './rules.ts';
import {
  addPaid,
  addPaidMany,
  documentsCleared,
  findAccounts,
  insertPaymentEntries,
  insertPayments,
  insertRows,
  lockPayable,
  lockPayables,
  lockPayment,
  markReversed,
  nextPaymentIds,
  paymentEntryRows,
  paymentLines,
  type NewPayment,
  type PayableRow,
} from './store.ts';

/**
 * The payment workflow (docs/payments.md): record a payment of a posted AR/AP
 * transaction or invoice, reverse it, the open amount of a document, the aging report. Each
 * function runs inside the caller's tenant transaction, so a refused request writes nothing.
 */

export interface PaymentInput {
  document_id: number;
  date: string;
  /** document currency, as a decimal string */
  amount: string;
  /** accno of the bank or cash account (link AR_paid / AP_paid) */
  account: string;
  /** the payment rate; required for foreign-currency documents */
  exchangerate?: string;
  memo?: string;
  source?: string;
}

/** The side's payment permission (also checked here for callers other than the payment route, e.g. bank matching). */
export const PAYMENT_PERMISSION: Record<Vc, Permission> = {
  vendor: 'vendors.postings.payment',
  customer: 'customers.postings.receipt',
};

function requirePaymentPermission(c: ServiceContext, vc: Vc): void {
  const permission = PAYMENT_PERMISSION[vc];
  if (!roleHas(c.actor.role, permission))
    throw forbidden(`Recording ${vc} payments needs permission ${permission} (role ${c.actor.role}).`);
}

const paidDocument = (row: PayableRow): PaidDocument => ({
  id: Number(row.id),
  status: row.status,
  reversalOf: row.reversal_of_id,
  invDate: row.inv_date,
  currency: row.currency,
  gross: new Money(row.amount),
  paid: new Money(row.paid),
  controlAccountId: Number(row.record_account_id),
});

/**
 * Records a payment of `input.amount` (document currency) and posts it: bank/cash against the
 * document's control account, the exchange difference to the company's FX gain/loss account.
 * The document row is locked first, so concurrent payments of one document cannot overpay it.
 */
export async function recordPayment(c: ServiceContext, vc: Vc, input: PaymentInput): Promise<{ id: number }> {
  const [recorded] = await recordPayments(c, vc, [input]);
  return recorded!;
}

/** One input's document as the batch sees it: `paid` and `cleared` grow with the batch's earlier payments of it. */
interface BatchDocument {
  row: PayableRow;
  doc: PaidDocument;
  controlBase: Decimal;
  clearedSoFar: Decimal;
}

/**
 * Records several payments of one side as if `recordPayment` were called for each in turn
 * (same checks in the same order, same rows), but set-based: the documents are locked in one
 * statement, the closing date, accounts and cleared sums read once, the lines computed here,
 * and each table written once for the whole batch — about nine round trips instead of ten per
 * payment. A later payment of the same document sees the earlier ones' paid and cleared
 * amounts. The ids come back in input order; when any input is refused, the DomainError the
 * one-by-one calls would have thrown first is thrown and nothing is written.
 */
export async function recordPayments(
  c: ServiceContext,
  vc: Vc,
  inputs: readonly PaymentInput[],
): Promise<{ id: number }[]> {
  requirePaymentPermission(c, vc);
  if (inputs.length === 0) return [];
  const base = c.company.base_currency.trim();
  const documentIds = inputs.map((i) => i.document_id);
  const locked = await lockPayables(c.tx, c.company.id, vc, documentIds);
  // the id is a body field: a document that is not there (or on the other side) is the field's fault
  const missing = inputs.find((i) => !locked.has(i.document_id));
  // inputs before the missing one could still be refused first; check them before reporting it
  const checked = missing ? inputs.slice(0, inputs.indexOf(missing)) : inputs;
  const fxAccno = c.company.settings.fx_gain_loss_account;
  const closed = await closedUntil(c.tx, c.company.id);
  const cleared = await documentsCleared(c.tx, c.company.id, [...locked.keys()]);
  const accounts = await findAccounts(c.tx, c.company.id, [
    ...checked.map((i) => i.account),
    ...(typeof fxAccno === 'string' ? [fxAccno] : []),
  ]);
  const fxAccount = typeof fxAccno === 'string' ? accounts.get(fxAccno) : undefined;

  const documents = new Map<number, BatchDocument>();
  const planned: {
    input: PaymentInput;
    state: BatchDocument;
    amount: Decimal;
    rate: Decimal;
    account: PaymentAccount;
    posting: PaymentPosting;
  }[] = [];
  for (const input of checked) {
    let state = documents.get(input.document_id);
    if (!state) {
      const row = locked.get(input.document_id)!;
      const sums = cleared.get(input.document_id)!;
      const doc = paidDocument(row);
      // a credit note's control line counts against the gross: signed like it
      const controlBase = doc.gross.isNegative() ? sums.controlBase.negated() : sums.controlBase;
      state = { row, doc, controlBase, clearedSoFar: sums.clearedSoFar };
      documents.set(input.document_id, state);
    }
    const { doc } = state;
    assertPayable(doc);
    assertPaymentDate(doc, input.date, closed);
    const amount = paymentAmount(doc, input.amount);
    const rate = paymentRate(doc, input.exchangerate, base);
    const account = assertPaymentAccount(vc, input.account, accounts.get(input.account), doc);
    const posting = computePaymentPosting({
      vc,
      amount,
      rate,
      baseCurrency: base,
      gross: doc.gross,
      open: openAmount(doc.gross, doc.paid),
      controlBase: state.controlBase,
      clearedSoFar: state.clearedSoFar,
      bankAccountId: account.id,
      controlAccountId: doc.controlAccountId,
      fxAccountId: fxAccount?.id ?? null,
    });
    assertWithinApprovalLimit(posting.bankBase.abs(), c.actor.approvalLimit, base);
    doc.paid = doc.paid.plus(amount);
    state.clearedSoFar = state.clearedSoFar.plus(posting.clearedBase);
    planned.push({ input, state, amount, rate, account, posting });
  }
  if (missing) throw ruleInvalid(`No ${vc} transaction or invoice with id ${missing.document_id}.`, '/document_id');

  const ids = await nextPaymentIds(c.tx, planned.length);
  const paid = new Map<number, Decimal>();
  const payments: (NewPayment & { id: number })[] = [];
  const entries: Record<string, unknown>[] = [];
  const audit: ReturnType<typeof auditRow>[] = [];
  for (const [k, p] of planned.entries()) {
    const id = ids[k]!;
    const { doc } = p.state;
    const { input, amount, rate, account, posting } = p;
    payments.push({
      id,
      vc,
      transaction_id: doc.id,
      date: input.date,
      amount: amount.toString(),
      currency: doc.currency,
      exchangerate: rate.toString(),
      account_id: account.id,
      base_amount: posting.bankBase.toString(),
      cleared_base: posting.clearedBase.toString(),
      memo: input.memo ?? null,
      source: input.source ?? null,
    });
    entries.push(
      ...paymentEntryRows(
        c.company.id,
        { documentId: doc.id, paymentId: id, date: input.date, currency: doc.currency },
        posting.entries,
      ),
    );
    paid.set(doc.id, (paid.get(doc.id) ?? new Money(0)).plus(amount));
    audit.push(
      auditRow(c.company.id, c.actor, `${vc}_payment`, id, 'create', {
        document_id: doc.id,
        date: input.date,
        amount: amountJson(amount, doc.currency),
        currency: doc.currency,
        account: account.accno,
        exchangerate: rate.toNumber(),
        fx_gain_loss: amountJson(posting.fxGainLoss, base),
      }),
    );
  }
  // the payments first: their ledger lines reference them
  await insertPayments(c.tx, c.company.id, payments);
  await insertRows(c.tx, 'ledger_entries', entries);
  await addPaidMany(c.tx, c.company.id, paid);
  await insertRows(c.tx, 'audit_log', audit);
  await recordPaymentEvents(c, vc, payments, documents);
  return ids.map((id) => ({ id }));
}

/** The events of a batch, last in its transaction: each payment, then each document's new state. */
async function recordPaymentEvents(
  c: ServiceContext,
  vc: Vc,
  payments: readonly (NewPayment & { id: number })[],
  documents: ReadonlyMap<number, BatchDocument>,
): Promise<void> {
  for (const p of payments) {
    await recordEvent(c.tx, c.company.id, c.actor, {
      type: 'payment.recorded',
      resource: { type: `${vc}_payment`, id: p.id, path: `/arap/payment/${vc}/${p.id}` },
      snapshot: { side: vc, document_id: p.transaction_id, date: p.date, amount: p.amount, currency: p.currency },
    });
  }
  for (const { doc } of documents.values()) {
    const open = openAmount(doc.gross, doc.paid);
    const paid = open.times(doc.gross.isNegative() ? -1 : 1).lte(0);
    // bills have no partly-paid event (the payment.recorded says it)
    if (vc === 'vendor' && !paid) continue;
    await recordEvent(c.tx, c.company.id, c.actor, {
      type: vc === 'customer' ? (paid ? 'invoice.paid' : 'invoice.partially_paid') : 'bill.paid',
      resource: { type: vc === 'customer' ? 'invoice' : 'bill', id: doc.id, path: `/arap/document/${vc}/${doc.id}` },
      snapshot: {
        amount: doc.gross.toString(),
        paid: doc.paid.toString(),
        open: open.toString(),
        currency: doc.currency,
      },
    });
  }
}

/**
 * DELETE: posts the payment's lines negated, dated the payment's own date (so reports of any
 * period see the payment and its reversal together), and gives the document its open amount
 * back. The payment stays, marked reversed; a second reversal is a conflict.
 */
export async function reversePayment(c: ServiceContext, vc: Vc, id: number): Promise<PaymentRead> {
  requirePaymentPermission(c, vc);
  const current = await readPayment(c.tx, c.company.id, vc, id);
  if (!current) throw notFound(`No ${vc} payment with id ${id}.`);
  // the document first, as recordPayment locks it: the two never wait for each other crosswise
  await lockPayable(c.tx, c.company.id, vc, Number(current.document_id));
  const payment = (await lockPayment(c.tx, c.company.id, vc, id))!;
  if (payment.reversal_date !== null) throw conflict(`Payment ${id} is already reversed (${payment.reversal_date}).`);
  await refuseIfReconciled(c.tx, c.company.id, `Payment ${id}`, { payment_id: id });
  if (payment.kind === 'allocation')
    throw conflict(`Payment ${id} is a credit note's allocation; it stands with the credit note.`);
  assertOpenPeriod(payment.date, await closedUntil(c.tx, c.company.id), '/date');
  const lines = await paymentLines(c.tx, c.company.id, id);
  await insertPaymentEntries(
    c.tx,
    c.company.id,
    { documentId: Number(payment.transaction_id), paymentId: id, date: payment.date, currency: payment.currency },
    reversePaymentLines(lines),
  );
  await markReversed(c.tx, c.company.id, id, payment.date);
  await addPaid(c.tx, c.company.id, Number(payment.transaction_id), new Money(payment.amount).negated());
  await recordAudit(c.tx, c.company.id, c.actor, `${vc}_payment`, id, 'reverse', {
    document_id: Number(payment.transaction_id),
    date: payment.date,
  });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'payment.deleted',
    resource: { type: `${vc}_payment`, id, path: `/arap/payment/${vc}/${id}` },
    snapshot: {
      side: vc,
      document_id: Number(payment.transaction_id),
      date: payment.date,
      // as payment.recorded writes it ("50", not the column's "50.000000")
      amount: new Money(payment.amount).toString(),
      currency: payment.currency,
    },
  });
  return (await readPayment(c.tx, c.company.id, vc, id))!;
}

export async function paymentById(tx: Tx, companyId: number, vc: Vc, id: number): Promise<PaymentRead> {
  const payment = await readPayment(tx, companyId, vc, id);
  if (!payment) throw notFound(`No ${vc} payment with id ${id}.`);
  return payment;
}

export interface AgingReport {
  date: string;
  currency: string;
  rows: AgingRow[];
  totals: AgingAmounts;
}

/** Open amounts per party in the base currency as of `date`, by days past the due date. */
export async function agingReport(
  c: Pick<ServiceContext, 'tx' | 'company'>,
  vc: Vc,
  date: string,
): Promise<AgingReport> {
  const { rows, totals } = agingRows(await openDocumentsAsOf(c.tx, c.company.id, vc, date), date);
  return { date, currency: c.company.base_currency.trim(), rows, totals };
}

/** A credit note's allocation as answered: both documents' open amounts after it. */
export interface AllocationRead {
  credit_note_id: number;
  document_id: number;
  amount: number;
  date: string;
  credit_note_open: number;
  document_open: number;
}

/**
 * `POST /arap/credit_note/{vc}/{id}/allocate`: sets `amount` of a credit note's open amount against an open document
 * of the same party and currency. Two rows of `arap_payments` of kind `allocation` (the document's +amount, the
 * credit note's −amount), whose control lines cancel on the control account; for a foreign currency, the difference
 * of the two documents' rates goes to the FX gain/loss account. Both documents are locked (in id order).
 */
export async function allocateCredit(
  c: ServiceContext,
  vc: Vc,
  creditId: number,
  input: { document_id: number; amount: number; date?: string },
): Promise<AllocationRead> {
  requirePaymentPermission(c, vc);
  const base = c.company.base_currency.trim();
  const locked = await lockPayables(c.tx, c.company.id, vc, [creditId, input.document_id]);
  const creditRow = locked.get(creditId);
  if (creditRow?.type !== 'credit_note') throw notFound(`No ${vc} credit note with id ${creditId}.`);
  const targetRow = locked.get(input.document_id);
  if (!targetRow) throw ruleInvalid(`No ${vc} document with id ${input.document_id}.`, '/document_id');
  const credit = { ...paidDocument(creditRow), partyId: Number(creditRow.party_id) };
  const target = { ...paidDocument(targetRow), partyId: Number(targetRow.party_id) };
  const date = input.date ?? [credit.invDate, target.invDate].sort()[1]!;
  const closed = await closedUntil(c.tx, c.company.id);
  const amount = checkAllocation({ credit, target, amount: String(input.amount), date }, closed);

  const cleared = await documentsCleared(c.tx, c.company.id, [creditId, input.document_id]);
  const share = (doc: PaidDocument, signed: Decimal) => {
    const sums = cleared.get(doc.id)!;
    return clearedShare({
      amount: signed,
      gross: doc.gross,
      open: openAmount(doc.gross, doc.paid),
      controlBase: doc.gross.isNegative() ? sums.controlBase.negated() : sums.controlBase,
      clearedSoFar: sums.clearedSoFar,
      baseCurrency: base,
    });
  };
  const targetCleared = share(target, amount);
  const creditCleared = share(credit, amount.negated());
  const s = vc === 'customer' ? 1 : -1;
  const fx = targetCleared.plus(creditCleared);
  const fxAccno = c.company.settings.fx_gain_loss_account;
  const fxAccount =
    fx.isZero() || typeof fxAccno !== 'string'
      ? undefined
      : (await findAccounts(c.tx, c.company.id, [fxAccno])).get(fxAccno);
  if (!fx.isZero() && !fxAccount) {
    throw ruleInvalid(
      'The company has no FX gain/loss account for the difference of the two rates; set fx_gain_loss_account.',
    );
  }
  const [targetPaymentId, creditPaymentId] = await nextPaymentIds(c.tx, 2);
  const row = (doc: PaidDocument, id: number, signed: Decimal, clearedBase: Decimal, other: number) => ({
    id: id!,
    vc,
    transaction_id: doc.id,
    date,
    amount: signed.toString(),
    currency: doc.currency,
    exchangerate: '1',
    account_id: doc.controlAccountId,
    base_amount: '0',
    cleared_base: clearedBase.toString(),
    memo: null,
    source: null,
    kind: 'allocation' as const,
    allocated_with_id: other,
  });
  await insertPayments(c.tx, c.company.id, [
    row(target, targetPaymentId!, amount, targetCleared, credit.id),
    row(credit, creditPaymentId!, amount.negated(), creditCleared, target.id),
  ]);
  const control = (doc: PaidDocument, signed: Decimal, clearedBase: Decimal): PaymentLine => ({
    accountId: doc.controlAccountId,
    amount: clearedBase.times(-s),
    fxAmount: signed.times(-s),
    kind: 'payment',
  });
  const targetLines = [control(target, amount, targetCleared)];
  if (fxAccount) targetLines.push({ accountId: fxAccount.id, amount: fx.times(s), fxAmount: new Money(0), kind: 'fx' });
  await insertRows(c.tx, 'ledger_entries', [
    ...paymentEntryRows(
      c.company.id,
      { documentId: target.id, paymentId: targetPaymentId!, date, currency: target.currency },
      targetLines,
    ),
    ...paymentEntryRows(
      c.company.id,
      { documentId: credit.id, paymentId: creditPaymentId!, date, currency: credit.currency },
      [control(credit, amount.negated(), creditCleared)],
    ),
  ]);
  await addPaidMany(
    c.tx,
    c.company.id,
    new Map([
      [target.id, amount],
      [credit.id, amount.negated()],
    ]),
  );
  await recordAudit(c.tx, c.company.id, c.actor, `${vc}_credit_note`, credit.id, 'allocate', {
    document_id: target.id,
    date,
    amount: amountJson(amount, credit.currency),
    fx_gain_loss: amountJson(fx.times(-1), base),
  });
  return {
    credit_note_id: credit.id,
    document_id: target.id,
    amount: amount.toNumber(),
    date,
    credit_note_open: openAmount(credit.gross, credit.paid.minus(amount)).toNumber(),
    document_open: openAmount(target.gross, target.paid.plus(amount)).toNumber(),
  };
}
