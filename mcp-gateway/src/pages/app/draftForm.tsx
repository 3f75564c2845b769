/**
 * The workstation's edit forms for a draft's lines (AR/AP transactions) and items (invoices):
 * the rows shown, and the complete write body built from the draft's read shape and the
 * posted form. Plain forms, no script: each existing row has a "remove" box and one empty
 * row is offered to add a line (save, and another empty row appears). A row's tax is chosen
 * from the company's tax codes valid on the document date (GET /system/taxes); the ledger
 * checks the account and applies the rate.
 */
import { tr } from './language.ts';
import { ACCOUNT_LIST, type Refused, RowField, shown, swissAmount } from './ui.tsx';

export type Vc = 'vendor' | 'customer';

/** A tax code of GET /system/taxes (the fields the forms use). */
export interface TaxCode {
  code: string;
  accno: string;
  rate: number;
  valid_from: string;
  valid_to: string | null;
  description: string;
}

export interface ReadLine {
  account: string;
  description?: string;
  amount: number;
  taxAccount?: string;
  taxRate?: number;
  taxAmount?: number;
  net?: number;
  gross?: number;
}

export interface ReadItem {
  service_id?: number;
  partnumber?: string;
  description?: string;
  quantity: number;
  unit?: string;
  price?: number;
  discount?: number;
  account?: string;
  taxAccount?: string;
  taxRate?: number;
  amount?: number;
  tax?: number;
}

/** The read shape of a draft (GET /arap/document/{vc}/{id}), the fields the pages use. */
export interface Draft {
  kind: 'transaction' | 'invoice';
  id: number;
  vc: Vc;
  vendor_id?: number;
  customer_id?: number;
  name: string;
  invNumber: string;
  documentNumber?: string;
  invDate: string;
  dueDate?: string;
  currency: string;
  exchangerate?: number;
  recordAccount?: string;
  description?: string;
  taxincluded?: boolean;
  status: string;
  payment_file?: number;
  vc_bank_id?: number;
  paymentReference?: string;
  // customer invoices only
  notes?: string;
  terms?: number;
  shippingpoint?: string;
  ordNumber?: string;
  poNumber?: string;
  lines?: ReadLine[];
  items?: ReadItem[];
  taxes?: { taxAccount: string; rate: number; base: number; amount: number }[];
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  files?: { id: number; name: string; mediaType: string; size: number }[];
}

export interface HeaderChanges {
  description?: string;
  invDate?: string;
  dueDate?: string;
}

export interface LineInput {
  account: string;
  description?: string;
  amount: number;
  taxAccount?: string;
}

export interface ItemInput {
  description: string;
  quantity: number;
  unit?: string;
  price: number;
  discount?: number;
  account: string;
  taxAccount?: string;
}

/**
 * A row of the posted form and the original row it stands for (`from`, absent for a new row):
 * what is kept of the original (a service, a tax override) depends on what was changed.
 */
interface Edited<T> {
  value: T;
  from?: number;
}

/** A form's amount: Swiss (1'234.50) or plain; undefined when not an amount. */
export function parseAmount(value: unknown, decimals = 6): string | undefined {
  const text = String(value ?? '').replace(/['’\s]/g, '');
  return new RegExp(`^-?\\d{1,13}(\\.\\d{1,${decimals}})?$`).test(text) ? text : undefined;
}

/** The header every AR/AP write repeats from the read shape (approve and update save the whole document). */
function headerBody(d: Draft, changes: HeaderChanges) {
  const description = changes.description ?? d.description;
  const dueDate = changes.dueDate ?? d.dueDate;
  return {
    ...(d.vc === 'vendor' ? { vendor_id: d.vendor_id } : { customer_id: d.customer_id }),
    invNumber: d.invNumber,
    ...(d.documentNumber ? { documentNumber: d.documentNumber } : {}),
    invDate: changes.invDate ?? d.invDate,
    ...(dueDate ? { dueDate } : {}),
    curr: d.currency,
    ...(d.exchangerate !== undefined ? { exchangerate: d.exchangerate } : {}),
    ...(d.recordAccount ? { recordAccount: d.recordAccount } : {}),
    ...(description ? { description } : {}),
    ...(d.taxincluded !== undefined ? { taxincluded: d.taxincluded } : {}),
    ...(d.vc === 'vendor' && d.payment_file !== undefined ? { payment_file: d.payment_file } : {}),
    ...(d.vc_bank_id !== undefined ? { vc_bank_id: d.vc_bank_id } : {}),
    ...(d.paymentReference ? { paymentReference: d.paymentReference } : {}),
  };
}

/**
 * The complete write body of a transaction draft. A line's tax override is kept only while
 * the line, its amount and its tax account are unchanged (otherwise the tax is calculated again).
 */
export function transactionBody(d: Draft, changes: HeaderChanges & { lines?: Edited<LineInput>[] } = {}) {
  const original = d.lines ?? [];
  const edited: Edited<LineInput>[] =
    changes.lines ??
    original.map((l, i) => ({
      from: i,
      value: { account: l.account, amount: l.amount, description: l.description, taxAccount: l.taxAccount },
    }));
  const lines = edited.map(({ value, from }) => {
    const was = from === undefined ? undefined : original[from];
    const keepTax =
      was?.taxAccount !== undefined &&
      was.taxAmount !== undefined &&
      was.amount === value.amount &&
      was.taxAccount === value.taxAccount;
    return {
      account: value.account,
      amount: value.amount,
      ...(value.description ? { description: value.description } : {}),
      ...(value.taxAccount ? { taxAccount: value.taxAccount } : {}),
      ...(keepTax ? { taxAmount: was.taxAmount } : {}),
    };
  });
  return { type: 'transaction', ...headerBody(d, changes), lines };
}

/**
 * The complete write body of an invoice draft (items replace the stored ones). An item keeps
 * its catalogue service and its tax while quantity, price, discount and tax account are unchanged.
 */
export function invoiceBody(d: Draft, changes: HeaderChanges & { items?: Edited<ItemInput>[] } = {}) {
  const original = d.items ?? [];
  const edited: Edited<Partial<ItemInput> & { quantity: number }>[] =
    changes.items ?? original.map((it, i) => ({ from: i, value: { ...it } }));
  const items = edited.map(({ value, from }) => {
    const was = from === undefined ? undefined : original[from];
    const same =
      was !== undefined &&
      was.quantity === value.quantity &&
      was.price === value.price &&
      (was.discount ?? 0) === (value.discount ?? 0) &&
      was.taxAccount === value.taxAccount;
    return {
      ...(was?.service_id !== undefined ? { service_id: was.service_id } : {}),
      ...(value.description ? { description: value.description } : {}),
      quantity: value.quantity,
      ...(value.unit ? { unit: value.unit } : {}),
      ...(value.price !== undefined ? { price: value.price } : {}),
      ...(value.discount ? { discount: value.discount } : {}),
      ...(value.account ? { account: value.account } : {}),
      ...(value.taxAccount ? { taxAccount: value.taxAccount } : {}),
      ...(same && value.taxAccount && was.tax !== undefined ? { taxAmount: was.tax } : {}),
    };
  });
  const customer =
    d.vc === 'customer'
      ? {
          ...(d.notes ? { notes: d.notes } : {}),
          ...(d.terms !== undefined ? { terms: d.terms } : {}),
          ...(d.shippingpoint ? { shippingpoint: d.shippingpoint } : {}),
          ...(d.ordNumber ? { ordNumber: d.ordNumber } : {}),
          ...(d.poNumber ? { poNumber: d.poNumber } : {}),
        }
      : {};
  return { type: 'invoice', ...headerBody(d, changes), ...customer, items };
}

/** The tax codes valid on `date`, one choice per tax account (codes sharing an account named together). */
export function taxChoices(taxes: TaxCode[], date: string, current: (string | undefined)[]) {
  const byAccount = new Map<string, string[]>();
  for (const t of taxes) {
    if (t.valid_from > date || (t.valid_to !== null && t.valid_to < date)) continue;
    const label = `${t.code} ${(t.rate * 100).toFixed(1)} %`;
    byAccount.set(t.accno, [...(byAccount.get(t.accno) ?? []), label]);
  }
  // a row's own tax account stays selectable even when no code is valid on the date (the ledger says why)
  for (const accno of current) if (accno && !byAccount.has(accno)) byAccount.set(accno, [tr('app.form.notValid')]);
  // the account first: it stays readable where a narrow select cuts the label
  return [...byAccount].map(([accno, labels]) => ({ accno, label: `${accno} · ${labels.join(', ')}` }));
}

type Choices = ReturnType<typeof taxChoices>;

function TaxSelect({
  id,
  name,
  label,
  value,
  choices,
}: Record<'id' | 'name' | 'label', string> & { value: string; choices: Choices }) {
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} name={name}>
        <option value="">{tr('app.form.noTax')}</option>
        {choices.map((c) => (
          <option value={c.accno} selected={c.accno === value}>
            {c.label}
          </option>
        ))}
      </select>
    </>
  );
}

function RemoveBox({ i, what }: { i: number; what: 'line' | 'item' }) {
  return (
    <label for={`remove-${i}`} class="check">
      <input type="checkbox" id={`remove-${i}`} name={`remove_${i}`} value="1" />{' '}
      {tr(what === 'line' ? 'app.form.removeLine' : 'app.form.removeItem', { n: i + 1 })}
    </label>
  );
}

/** The rows of a transaction's lines: the existing ones and an empty one to add. */
/** `refused`: a refused change, whose typed values the rows show again (and its message at its field). */
export function LineRows({ lines, choices, refused }: { lines: ReadLine[]; choices: Choices; refused?: Refused }) {
  const rows: (ReadLine | undefined)[] = [...lines, undefined];
  return (
    <>
      <input type="hidden" name="rows" value={String(rows.length)} />
      {rows.map((l, i) => {
        const row = l ? tr('app.form.lineRow', { n: i + 1 }) : tr('app.form.newLine');
        const at = { i, refused };
        return (
          <fieldset class="row" data-row={String(i)}>
            <legend>{l ? tr('app.form.line', { n: i + 1 }) : tr('app.form.addLine')}</legend>
            <RowField
              {...at}
              prefix="account"
              name="account"
              label={tr('app.form.accountOf', { row })}
              value={l?.account}
              list={ACCOUNT_LIST}
            />
            <RowField
              {...at}
              prefix="ldesc"
              name="description"
              label={tr('app.form.textOf', { row })}
              value={l?.description}
            />
            <RowField
              {...at}
              prefix="amount"
              name="amount"
              label={tr('app.form.amountOf', { row })}
              value={l ? swissAmount(l.amount) : ''}
              decimal
            />
            <TaxSelect
              id={`tax-${i}`}
              name={`tax_${i}`}
              label={tr('app.form.taxOf', { row })}
              value={shown(refused, `tax_${i}`, l?.taxAccount)}
              choices={choices}
            />
            {l ? <RemoveBox i={i} what="line" /> : null}
          </fieldset>
        );
      })}
    </>
  );
}

/** The rows of an invoice's items: the existing ones and an empty one to add. */
export function ItemRows({ items, choices, refused }: { items: ReadItem[]; choices: Choices; refused?: Refused }) {
  const rows: (ReadItem | undefined)[] = [...items, undefined];
  const num = (v: number | undefined) => (v === undefined ? '' : String(v));
  return (
    <>
      <input type="hidden" name="rows" value={String(rows.length)} />
      {rows.map((it, i) => {
        const row = it ? tr('app.form.itemRow', { n: i + 1 }) : tr('app.form.newItem');
        const at = { i, refused };
        return (
          <fieldset class="row" data-row={String(i)}>
            <legend>{it ? tr('app.form.item', { n: i + 1 }) : tr('app.form.addItem')}</legend>
            <RowField
              {...at}
              prefix="idesc"
              name="description"
              label={tr('app.form.textOf', { row })}
              value={it?.description}
            />
            <RowField
              {...at}
              prefix="qty"
              name="quantity"
              label={tr('app.form.quantityOf', { row })}
              value={num(it?.quantity)}
              decimal
            />
            <RowField {...at} prefix="unit" name="unit" label={tr('app.form.unitOf', { row })} value={it?.unit} />
            <RowField
              {...at}
              prefix="price"
              name="price"
              label={tr('app.form.priceOf', { row })}
              value={it?.price === undefined ? '' : swissAmount(it.price)}
              decimal
            />
            <RowField
              {...at}
              prefix="discount"
              name="discount"
              label={tr('app.form.discountOf', { row })}
              value={it?.discount ? String(it.discount) : ''}
              decimal
            />
            <RowField
              {...at}
              prefix="iaccount"
              name="account"
              label={tr('app.form.accountOf', { row })}
              value={it?.account}
              list={ACCOUNT_LIST}
            />
            <TaxSelect
              id={`tax-${i}`}
              name={`tax_${i}`}
              label={tr('app.form.taxOf', { row })}
              value={shown(refused, `tax_${i}`, it?.taxAccount)}
              choices={choices}
            />
            {it ? <RemoveBox i={i} what="item" /> : null}
          </fieldset>
        );
      })}
    </>
  );
}

/** What the form posted: the rows or the first problem, in words for the page. */
type Parsed<T> = { rows: Edited<T>[] } | { problem: string; field?: string };

const MAX_ROWS = 500;

function rowCount(f: Readonly<Record<string, unknown>>): number {
  const n = Number(f.rows);
  return Number.isInteger(n) && n > 0 ? Math.min(n, MAX_ROWS + 1) : 0;
}

const text = (f: Readonly<Record<string, unknown>>, name: string) => String(f[name] ?? '').trim();

/** `originals`: how many rows stood for existing lines (the rest are new). */
export function parseLines(f: Readonly<Record<string, unknown>>, originals: number): Parsed<LineInput> {
  const rows: Edited<LineInput>[] = [];
  for (let i = 0; i < rowCount(f); i++) {
    if (text(f, `remove_${i}`)) continue;
    const [account, amountText, description, taxAccount] = ['account', 'amount', 'description', 'tax'].map((k) =>
      text(f, `${k}_${i}`),
    ) as [string, string, string, string];
    const isNew = i >= originals;
    if (isNew && !account && !amountText && !description) continue;
    const amount = parseAmount(amountText);
    const row = isNew ? tr('app.form.theNewLine') : tr('app.form.line', { n: i + 1 });
    if (!account) return { problem: tr('app.form.needsAccount', { row }), field: `account_${i}` };
    if (amount === undefined) return { problem: tr('app.form.needsAmount', { row }), field: `amount_${i}` };
    rows.push({
      from: isNew ? undefined : i,
      value: {
        account,
        amount: Number(amount),
        ...(description ? { description } : {}),
        ...(taxAccount ? { taxAccount } : {}),
      },
    });
  }
  return rows.length ? { rows } : { problem: tr('app.form.keepLine') };
}

export function parseItems(f: Readonly<Record<string, unknown>>, originals: number): Parsed<ItemInput> {
  const rows: Edited<ItemInput>[] = [];
  for (let i = 0; i < rowCount(f); i++) {
    if (text(f, `remove_${i}`)) continue;
    const [description, quantityText, unit, priceText, discountText, account, taxAccount] = [
      'description',
      'quantity',
      'unit',
      'price',
      'discount',
      'account',
      'tax',
    ].map((k) => text(f, `${k}_${i}`)) as [string, string, string, string, string, string, string];
    const isNew = i >= originals;
    if (isNew && !description && !quantityText && !priceText && !account) continue;
    const row = isNew ? tr('app.form.theNewItem') : tr('app.form.item', { n: i + 1 });
    const quantity = parseAmount(quantityText);
    const price = parseAmount(priceText);
    const discount = discountText ? parseAmount(discountText, 4) : '0';
    if (!description) return { problem: tr('app.form.needsText', { row }), field: `description_${i}` };
    if (quantity === undefined || Number(quantity) === 0)
      return { problem: tr('app.form.needsQuantity', { row }), field: `quantity_${i}` };
    if (price === undefined) return { problem: tr('app.form.needsPrice', { row }), field: `price_${i}` };
    if (discount === undefined || Number(discount) < 0 || Number(discount) > 100)
      return { problem: tr('app.form.badDiscount', { row }), field: `discount_${i}` };
    if (!account) return { problem: tr('app.form.needsAccount', { row }), field: `account_${i}` };
    rows.push({
      from: isNew ? undefined : i,
      value: {
        description,
        quantity: Number(quantity),
        ...(unit ? { unit } : {}),
        price: Number(price),
        ...(Number(discount) ? { discount: Number(discount) } : {}),
        account,
        ...(taxAccount ? { taxAccount } : {}),
      },
    });
  }
  return rows.length ? { rows } : { problem: tr('app.form.keepItem') };
}
