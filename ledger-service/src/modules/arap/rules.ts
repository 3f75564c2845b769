import type { Decimal } from 'decimal.js';
import { Money, decimalPlaces, minorUnits, partyRefOf, paymentFieldsOf, type TransactionInput } from '@ledger/shared';
import type { PostingInput, PostingLineInput, Vc } from './posting.ts';
import { DomainError, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { checkDimensions, type DimensionCatalogue } from '../dimensions/index.ts';

const NO_DIMENSIONS: DimensionCatalogue = new Map();
import { compactReference, isCreditorReference, isQrIban, isQrReference } from '@ledger/shared/references';

/**
 * The rules of an AR/AP transaction write that need the company's data, checked
 * against a snapshot of that data (loaded by ruleContext.ts in one query).
 * Pure: the same input and snapshot give the same result or the same DomainError.
 */
export interface ChartAccount {
  id: number;
  accno: string;
  links: string[];
}

export interface PartyRef {
  id: number;
  number: string;
  name: string;
}

export interface RuleContext {
  baseCurrency: string;
  closedUntil: string | null;
  /** accno of the default control account of this side and of the rounding account */
  defaultControl: string | undefined;
  roundingAccount: string | undefined;
  /** parties matching the given id or number (at most two rows) */
  parties: PartyRef[];
  /** accounts referenced by the document, plus the defaults */
  accounts: Map<string, ChartAccount>;
  /** tax rate valid on invDate, by tax account id */
  rates: Map<number, Decimal>;
  /** the bank account named by vc_bank_id, with the party it belongs to */
  bankAccounts: { id: number; partyId: number; iban: string }[];
  /** the company's dimensions, read only when a line names one */
  dimensions?: DimensionCatalogue;
}

export interface ResolvedLine extends PostingLineInput {
  accno: string;
  taxAccno: string | null;
  description: string | null;
}

export interface ResolvedTransaction {
  partyId: number;
  invDate: string;
  dueDate: string | null;
  currency: string;
  exchangerate: Decimal;
  controlAccno: string;
  paymentFile: boolean;
  vcBankId: number | null;
  /** vendor documents: QR or creditor reference in compact form (docs/bank.md) */
  paymentReference: string | null;
  posting: PostingInput & { lines: ResolvedLine[] };
}

const MAX_RATE_DECIMALS = 10;

function resolveParty(vc: Vc, input: TransactionInput, parties: PartyRef[]): PartyRef {
  const { id, number } = partyRefOf(vc, input);
  if (id === undefined && number === undefined) {
    throw ruleInvalid(`Send ${vc}_id or ${vc}number.`, `/${vc}_id`);
  }
  const byId = id === undefined ? undefined : parties.find((p) => p.id === id);
  const byNumber = number === undefined ? undefined : parties.find((p) => p.number === number);
  if (id !== undefined && !byId) throw new DomainError('vc_not_found', `No ${vc} with id ${id}.`, `/${vc}_id`);
  if (number !== undefined && !byNumber)
    throw new DomainError('vc_not_found', `No ${vc} with number "${number}".`, `/${vc}number`);
  if (byId && byNumber && byId.id !== byNumber.id) {
    throw ruleInvalid(`${vc}_id ${id} and ${vc}number "${number}" name different ${vc}s.`, `/${vc}number`);
  }
  return (byId ?? byNumber)!;
}

function amount(value: number, currency: string, field: string): Decimal {
  if (decimalPlaces(value) > minorUnits(currency)) {
    throw ruleInvalid(`Amount ${value} has more decimals than ${currency} allows (${minorUnits(currency)}).`, field);
  }
  return new Money(value);
}

function accountWithLink(ctx: RuleContext, accno: string, link: string, field: string, what: string): ChartAccount {
  const account = ctx.accounts.get(accno);
  if (!account) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, field);
  if (!account.links.includes(link)) throw ruleInvalid(`Account ${accno} is not ${what} (link ${link}).`, field);
  return account;
}

export function resolveTransaction(vc: Vc, input: TransactionInput, ctx: RuleContext): ResolvedTransaction {
  const side = vc === 'vendor' ? 'AP' : 'AR';
  const party = resolveParty(vc, input, ctx.parties);

  const currency = input.curr ?? ctx.baseCurrency;
  const exchangerate = new Money(input.exchangerate ?? 1);
  if (input.exchangerate !== undefined && decimalPlaces(input.exchangerate) > MAX_RATE_DECIMALS) {
    throw ruleInvalid(`exchangerate has more than ${MAX_RATE_DECIMALS} decimals.`, '/exchangerate');
  }
  if (currency === ctx.baseCurrency && !exchangerate.equals(1)) {
    throw ruleInvalid(
      `exchangerate must be 1 for documents in the base currency ${ctx.baseCurrency}.`,
      '/exchangerate',
    );
  }
  if (input.dueDate !== undefined && input.dueDate < input.invDate) {
    throw ruleInvalid('dueDate must not lie before invDate.', '/dueDate');
  }

  const controlAccno = input.recordAccount ?? ctx.defaultControl;
  if (!controlAccno)
    throw ruleInvalid(`The company has no default ${side} account; send recordAccount.`, '/recordAccount');
  const control = accountWithLink(
    ctx,
    controlAccno,
    side,
    '/recordAccount',
    `a ${vc === 'vendor' ? 'payable' : 'receivable'} control account`,
  );

  const lines: ResolvedLine[] = input.lines.map((line, i) => {
    const at = `/lines/${i}`;
    const account = accountWithLink(ctx, line.account, `${side}_amount`, `${at}/account`, `usable on ${vc} lines`);
    let taxAccountId: number | null = null;
    let rate: Decimal | null = null;
    if (line.taxAccount !== undefined) {
      const taxAccount = accountWithLink(
        ctx,
        line.taxAccount,
        `${side}_tax`,
        `${at}/taxAccount`,
        `a ${vc} tax account`,
      );
      rate = ctx.rates.get(taxAccount.id) ?? null;
      if (rate === null)
        throw ruleInvalid(`Tax account ${line.taxAccount} has no rate valid on ${input.invDate}.`, `${at}/taxAccount`);
      taxAccountId = taxAccount.id;
    } else if (line.taxAmount !== undefined) {
      throw ruleInvalid('taxAmount needs a taxAccount on the same line.', `${at}/taxAmount`);
    }
    return {
      accountId: account.id,
      accno: account.accno,
      description: line.description ?? null,
      amount: amount(line.amount, currency, `${at}/amount`),
      taxAccountId,
      taxAccno: line.taxAccount ?? null,
      rate,
      taxOverride: line.taxAmount === undefined ? null : amount(line.taxAmount, currency, `${at}/taxAmount`),
      dimensions: checkDimensions(line.dimensions, ctx.dimensions ?? NO_DIMENSIONS, `${at}/dimensions`),
    };
  });

  const payment = paymentFieldsOf(input);
  const paymentFile = payment.payment_file === 1;
  const vcBankId = payment.vc_bank_id ?? null;
  if (paymentFile && vcBankId === null)
    throw ruleInvalid('payment_file 1 needs vc_bank_id, the vendor bank account to pay to.', '/vc_bank_id');
  if (vcBankId !== null && !ctx.bankAccounts.some((b) => b.id === vcBankId && b.partyId === party.id)) {
    throw ruleInvalid(`Bank account ${vcBankId} is not a bank account of this vendor.`, '/vc_bank_id');
  }

  const paymentReference = resolvePaymentReference(
    payment.paymentReference,
    ctx.bankAccounts.find((b) => b.id === vcBankId)?.iban ?? null,
  );

  assertOpenPeriod(input.invDate, ctx.closedUntil);

  const rounding = ctx.roundingAccount ? ctx.accounts.get(ctx.roundingAccount) : undefined;
  return {
    partyId: party.id,
    invDate: input.invDate,
    dueDate: input.dueDate ?? null,
    currency,
    exchangerate,
    controlAccno: control.accno,
    paymentFile,
    vcBankId,
    paymentReference,
    posting: {
      vc,
      currency,
      baseCurrency: ctx.baseCurrency,
      exchangerate,
      taxincluded: input.taxincluded ?? false,
      lines,
      controlAccountId: control.id,
      roundingAccountId: rounding?.id ?? null,
    },
  };
}

/**
 * A vendor document's payment reference (docs/bank.md), compact: a QR reference (27
 * digits, mod-10 recursive) goes with a QR-IBAN and a QR-IBAN needs one; otherwise an ISO
 * 11649 creditor reference. The bank pays exactly this reference, so wrong check digits
 * are refused here rather than by the bank weeks later.
 */
export function resolvePaymentReference(sent: string | undefined, payeeIban: string | null): string | null {
  const field = '/paymentReference';
  const toQrIban = payeeIban !== null && isQrIban(payeeIban);
  if (sent === undefined) {
    if (toQrIban)
      throw ruleInvalid(
        `Bank account ${payeeIban} is a QR-IBAN: send the QR reference of the bill as paymentReference.`,
        field,
      );
    return null;
  }
  const reference = compactReference(sent);
  if (/^\d+$/.test(reference)) {
    if (!isQrReference(reference)) {
      throw ruleInvalid(
        `"${sent}" is not a valid QR reference (27 digits, the last one the mod-10 recursive check digit).`,
        field,
      );
    }
    if (!toQrIban)
      throw ruleInvalid(
        'A QR reference is only paid to a QR-IBAN; vc_bank_id must name a QR-IBAN, else send an RF creditor reference.',
        field,
      );
    return reference;
  }
  if (!reference.startsWith('RF')) {
    throw ruleInvalid(
      `"${sent}" is neither a QR reference (27 digits) nor a creditor reference (RF and two check digits).`,
      field,
    );
  }
  if (!isCreditorReference(reference)) {
    throw ruleInvalid(
      `"${sent}" is not a valid creditor reference (RF, two mod-97 check digits, at most 21 letters or digits).`,
      field,
    );
  }
  if (toQrIban)
    throw ruleInvalid(
      `Bank account ${payeeIban} is a QR-IBAN: it takes a QR reference, not a creditor reference.`,
      field,
    );
  return reference;
}

/** Account numbers a document refers to, for loading the snapshot. */
export function referencedAccounts(input: TransactionInput, extra: (string | undefined)[]): string[] {
  const set = new Set<string>();
  for (const l of input.lines) {
    set.add(l.account);
    if (l.taxAccount) set.add(l.taxAccount);
  }
  if (input.recordAccount) set.add(input.recordAccount);
  for (const e of extra) if (e) set.add(e);
  return [...set];
}

/**
 * The payment status of a document (every kind has one): open / partial / paid, from gross and paid (signs as stored: a
 * reversal is negative).
 */
export function paymentStatus(gross: Decimal.Value, paid: Decimal.Value): 'open' | 'partial' | 'paid' {
  const g = new Money(gross).abs();
  const p = new Money(paid).abs();
  if (p.isZero()) return g.isZero() ? 'paid' : 'open';
  return p.greaterThanOrEqualTo(g) ? 'paid' : 'partial';
}
