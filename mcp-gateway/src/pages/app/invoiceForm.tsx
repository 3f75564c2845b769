/**
 * The form that writes a new invoice (customer side) or bill (vendor side): the party, the
 * dates, and item rows that either name a service of the catalogue (its text, price, account
 * and tax come from the catalogue unless typed) or are written out. The totals and the VAT are
 * the ledger's: the form is saved as a draft or posted, and the document's page shows what the
 * ledger computed. Plain form, no script; a refused form is shown again as typed.
 */
import { tr } from './language.ts';
import { taxChoices, parseAmount, type TaxCode, type Vc } from './draftForm.tsx';
import { ACCOUNT_LIST, Field, formField, type Refused, shown } from './ui.tsx';

/** A service of the catalogue (GET /arap/services), the fields the form uses. */
export interface Service {
  id: number;
  partnumber?: string;
  description: string;
  unit?: string | null;
  price: number;
  active?: boolean;
}

export interface PartyChoice {
  id: number;
  name: string;
}

/** How many item rows a new document offers (empty rows are left out). */
export const NEW_ROWS = 4;

const text = (f: Readonly<Record<string, unknown>>, name: string) => String(f[name] ?? '').trim();
const ID = /^[1-9]\d{0,15}$/;

function Select(p: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  empty?: string;
  required?: boolean;
  refused?: Refused;
}) {
  const error = p.refused && formField(p.refused.field) === p.name ? p.refused.message : undefined;
  return (
    <>
      <label for={p.id}>{p.label}</label>
      <select
        id={p.id}
        name={p.name}
        required={p.required}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${p.id}-error` : undefined}
      >
        {p.empty !== undefined ? <option value="">{p.empty}</option> : null}
        {p.options.map((o) => (
          <option value={o.value} selected={o.value === p.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field-error" id={`${p.id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

export function NewDocumentForm(p: {
  vc: Vc;
  action: string;
  csrf: string;
  parties: PartyChoice[];
  services: Service[];
  taxes: TaxCode[];
  today: string;
  /** the party chosen beforehand (a party's page links here with `?party=`) */
  party?: string;
  refused?: Refused;
}) {
  const { refused } = p;
  const date = shown(refused, 'invDate', p.today);
  const choices = taxChoices(p.taxes, date, []);
  const serviceOptions = p.services
    .filter((s) => s.active !== false)
    .map((s) => ({ value: String(s.id), label: `${s.description} (${s.price})` }));
  return (
    <form method="post" action={p.action} id="new-document" aria-labelledby="new-heading">
      <input type="hidden" name="csrf" value={p.csrf} />
      <Select
        id="d-party"
        name="party"
        label={tr(p.vc === 'customer' ? 'app.invoices.customer' : 'app.invoices.vendor')}
        value={shown(refused, 'party', p.party)}
        options={p.parties.map((x) => ({ value: String(x.id), label: x.name }))}
        empty={tr('app.invoices.choose')}
        required
        refused={refused}
      />
      <Field
        id="d-invDate"
        name="invDate"
        type="date"
        label={tr('app.common.date')}
        value={date}
        required
        refused={refused}
      />
      <Field
        id="d-dueDate"
        name="dueDate"
        type="date"
        label={tr('app.common.dueDate')}
        value={shown(refused, 'dueDate', '')}
        refused={refused}
      />
      {p.vc === 'customer' ? (
        <>
          <Field
            id="d-terms"
            name="terms"
            label={tr('app.parties.field.terms')}
            value={shown(refused, 'terms', '')}
            decimal
            refused={refused}
          />
          <Field
            id="d-notes"
            name="notes"
            label={tr('app.invoices.notes')}
            value={shown(refused, 'notes', '')}
            refused={refused}
          />
        </>
      ) : (
        <Field
          id="d-documentNumber"
          name="documentNumber"
          label={tr('app.invoices.documentNumber')}
          value={shown(refused, 'documentNumber', '')}
          refused={refused}
        />
      )}
      <input type="hidden" name="rows" value={String(NEW_ROWS)} />
      <p class="hint">{tr('app.invoices.itemsHint')}</p>
      {Array.from({ length: NEW_ROWS }, (_, i) => {
        const row = tr('app.form.itemRow', { n: i + 1 });
        return (
          <fieldset class="row" data-row={String(i)}>
            <legend>{tr('app.form.item', { n: i + 1 })}</legend>
            <Select
              id={`service-${i}`}
              name={`service_${i}`}
              label={tr('app.invoices.serviceOf', { row })}
              value={shown(refused, `service_${i}`, '')}
              options={serviceOptions}
              empty={tr('app.invoices.noService')}
              refused={refused}
            />
            <Field
              id={`idesc-${i}`}
              name={`description_${i}`}
              label={tr('app.form.textOf', { row })}
              value={shown(refused, `description_${i}`, '')}
              refused={refused}
            />
            <Field
              id={`qty-${i}`}
              name={`quantity_${i}`}
              label={tr('app.form.quantityOf', { row })}
              value={shown(refused, `quantity_${i}`, '')}
              decimal
              refused={refused}
            />
            <Field
              id={`price-${i}`}
              name={`price_${i}`}
              label={tr('app.form.priceOf', { row })}
              value={shown(refused, `price_${i}`, '')}
              decimal
              refused={refused}
            />
            <Field
              id={`iaccount-${i}`}
              name={`account_${i}`}
              label={tr('app.form.accountOf', { row })}
              value={shown(refused, `account_${i}`, '')}
              list={ACCOUNT_LIST}
              refused={refused}
            />
            <Select
              id={`tax-${i}`}
              name={`tax_${i}`}
              label={tr('app.form.taxOf', { row })}
              value={shown(refused, `tax_${i}`, '')}
              options={choices.map((c) => ({ value: c.accno, label: c.label }))}
              empty={tr('app.invoices.taxOfService')}
            />
          </fieldset>
        );
      })}
      <p class="actions">
        <button type="submit" name="post" value="0" class="secondary">
          {tr('app.invoices.saveDraft')}
        </button>{' '}
        <button type="submit" name="post" value="1">
          {tr('app.invoices.post')}
        </button>
      </p>
    </form>
  );
}

/** The write body of the posted form (createInvoice), or the first problem in words and its field. */
export function newDocumentBody(
  vc: Vc,
  f: Readonly<Record<string, unknown>>,
): { body: Record<string, unknown> } | { problem: string; field?: string } {
  const party = text(f, 'party');
  if (!ID.test(party)) return { problem: tr('app.invoices.needsParty'), field: 'party' };
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < NEW_ROWS; i++) {
    const [service, description, quantityText, priceText, account, taxAccount] = [
      'service',
      'description',
      'quantity',
      'price',
      'account',
      'tax',
    ].map((k) => text(f, `${k}_${i}`)) as [string, string, string, string, string, string];
    if (!service && !description && !quantityText && !priceText && !account) continue;
    const row = tr('app.form.item', { n: i + 1 });
    const quantity = quantityText ? parseAmount(quantityText) : service ? '1' : undefined;
    const price = priceText ? parseAmount(priceText) : undefined;
    if (quantity === undefined || Number(quantity) === 0)
      return { problem: tr('app.form.needsQuantity', { row }), field: `quantity_${i}` };
    if (!service) {
      if (!description) return { problem: tr('app.form.needsText', { row }), field: `description_${i}` };
      if (price === undefined) return { problem: tr('app.form.needsPrice', { row }), field: `price_${i}` };
      if (!account) return { problem: tr('app.form.needsAccount', { row }), field: `account_${i}` };
    } else if (priceText && price === undefined)
      return { problem: tr('app.form.needsPrice', { row }), field: `price_${i}` };
    items.push({
      ...(ID.test(service) ? { service_id: Number(service) } : {}),
      ...(description ? { description } : {}),
      quantity: Number(quantity),
      ...(price !== undefined ? { price: Number(price) } : {}),
      ...(account ? { account } : {}),
      ...(taxAccount ? { taxAccount } : {}),
    });
  }
  if (!items.length) return { problem: tr('app.form.keepItem'), field: 'description_0' };
  const terms = text(f, 'terms');
  const optional = (name: string) => (text(f, name) ? { [name]: text(f, name) } : {});
  const body: Record<string, unknown> = {
    [vc === 'customer' ? 'customer_id' : 'vendor_id']: Number(party),
    invDate: text(f, 'invDate'),
    ...optional('dueDate'),
    ...(vc === 'customer'
      ? { ...optional('notes'), ...(terms ? { terms: /^\d{1,4}$/.test(terms) ? Number(terms) : terms } : {}) }
      : optional('documentNumber')),
    items,
    ...(text(f, 'post') === '1' ? { pending: '0' } : {}),
  };
  return { body };
}
