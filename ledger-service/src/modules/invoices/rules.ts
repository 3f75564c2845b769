import type { Decimal } from 'decimal.js';
import {
  decimalPlaces,
  ITEM_DECIMALS,
  MAX_AMOUNT,
  Money,
  roundTo,
  toJsonNumber,
  type InvoiceItemInput,
  type TransactionLineInput,
  type Vc,
} from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';
import type { ServiceRecord } from '../services/index.ts';

/**
 * The pure rules of invoice items (docs/invoices.md): an item filled from its service, its
 * checks, and its line: amount = round(quantity × price × (1 − discount/100)) to the
 * currency's minor unit. Tax is then computed on that line exactly as for transaction lines.
 */

/** What a catalogue service gives an item: the catalogue's own record (accounts by number; price with its currency). */
export type ServiceDefaults = ServiceRecord;

/** An item with everything it needs: sent fields, else its service's. */
export interface FilledItem {
  serviceId: number | null;
  partnumber: string | null;
  description: string;
  quantity: Decimal;
  unit: string | null;
  price: Decimal;
  discount: Decimal;
  account: string;
  taxAccount: string | undefined;
  taxAmount: number | undefined;
  /** checked with the line it becomes (arap rules) */
  dimensions: Record<string, string> | undefined;
}

function exact(value: number, field: string, what: string): Decimal {
  if (decimalPlaces(value) > ITEM_DECIMALS)
    throw ruleInvalid(`${what} ${value} has more than ${ITEM_DECIMALS} decimals.`, field);
  return new Money(value);
}

/** Fills an item from its service (if any) and checks it; `at` is the item's JSON pointer. */
export function fillItem(
  vc: Vc,
  item: InvoiceItemInput,
  service: ServiceDefaults | undefined,
  currency: string,
  at: string,
): FilledItem {
  if (
    service &&
    !service.active &&
    (item.price === undefined || item.account === undefined || item.description === undefined)
  ) {
    throw ruleInvalid(
      `Service ${service.partnumber} is inactive; send description, price and account, or use an active service.`,
      `${at}/service_id`,
    );
  }
  const description = item.description ?? service?.description;
  if (description === undefined)
    throw ruleInvalid('An item needs a description (or a service that gives it).', `${at}/description`);
  const account = item.account ?? (vc === 'customer' ? service?.income_account : service?.expense_account) ?? undefined;
  if (account === undefined) {
    throw ruleInvalid(
      `An item needs an account (or a service with ${vc === 'customer' ? 'an income' : 'an expense'} account).`,
      `${at}/account`,
    );
  }
  let price: Decimal;
  if (item.price !== undefined) price = exact(item.price, `${at}/price`, 'price');
  else if (service && service.curr === currency) price = new Money(service.price);
  else if (service)
    throw ruleInvalid(
      `Service ${service.partnumber} is priced in ${service.curr}, the invoice in ${currency}; send the price.`,
      `${at}/price`,
    );
  else throw ruleInvalid('An item needs a price (or a service that gives it).', `${at}/price`);
  const quantity = exact(item.quantity, `${at}/quantity`, 'quantity');
  if (quantity.isZero()) throw ruleInvalid('quantity must not be 0.', `${at}/quantity`);
  return {
    serviceId: service?.id ?? null,
    partnumber: service?.partnumber ?? item.partnumber ?? null,
    description,
    quantity,
    unit: item.unit ?? service?.unit ?? null,
    price,
    discount: new Money(item.discount ?? 0),
    account,
    taxAccount: item.taxAccount ?? service?.taxAccount ?? undefined,
    taxAmount: item.taxAmount,
    dimensions: item.dimensions,
  };
}

/** round(quantity × price × (1 − discount/100)) to the currency's minor unit, half away from zero. */
export function itemAmount(item: Pick<FilledItem, 'quantity' | 'price' | 'discount'>, currency: string): Decimal {
  const factor = new Money(1).minus(item.discount.dividedBy(100));
  return roundTo(item.quantity.times(item.price).times(factor), currency);
}

/** The transaction line of an item: what the posting rules and math take. */
export function itemLine(item: FilledItem, currency: string, at: string): TransactionLineInput {
  const amount = itemAmount(item, currency);
  if (amount.abs().greaterThan(MAX_AMOUNT))
    throw ruleInvalid(`The item's amount ${amount.toString()} exceeds ${MAX_AMOUNT}.`, `${at}/quantity`);
  return {
    account: item.account,
    description: item.description,
    // exact: at most 15 significant digits (≤ 12 integer digits, ≤ 3 decimals)
    amount: toJsonNumber(amount),
    ...(item.taxAccount === undefined ? {} : { taxAccount: item.taxAccount }),
    ...(item.taxAmount === undefined ? {} : { taxAmount: item.taxAmount }),
    ...(item.dimensions === undefined ? {} : { dimensions: item.dimensions }),
  };
}

/** dueDate from invDate and payment terms in days (yyyy-mm-dd, UTC calendar arithmetic). */
export function dueDateFromTerms(invDate: string, terms: number): string {
  const d = new Date(`${invDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + terms);
  return d.toISOString().slice(0, 10);
}
