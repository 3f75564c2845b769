/**
 * The form that writes a new invoice (customer side) or bill (vendor side): the party, the
 * dates, and item rows that either name a service of the catalogue (its text, price, account
 * and tax come from the catalogue unless typed) or are written out. As many rows as needed:
 * **Add a row** shows the form again as typed with one more. The totals and the VAT are the
 * ledger's: **Preview totals** asks the ledger what it would make of the form (its invoice
 * preview, nothing written) and shows net, VAT per rate and gross above the buttons; the form
 * is saved as a draft or posted, and the document's page shows what the ledger computed.
 * Plain form; a refused form is shown again as typed. With script, the app's script asks for the
 * same preview in the background a moment after one stops typing and shows it in its place.
 */
import { tr } from './language.ts';
import { taxChoices, parseAmount, type TaxCode, type Vc } from './draftForm.tsx';
import { ACCOUNT_LIST, AddRow, Field, formRows, RowField, type Refused, Select, shown, swissAmount } from './ui.tsx';

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

/** The ledger's preview of the form (POST /arap/invoices/{vc}/preview), the fields shown. */
export interface TotalsPreview {
  currency: string;
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  taxes: { taxAccount: string; rate: number; base: number; amount: number }[];
}

/** The ledger's net, VAT per rate on its base and gross of the form as typed. */
function Totals({ preview }: { preview: TotalsPreview }) {
  const money = (v: number) => `${preview.currency} ${swissAmount(v)}`;
  return (
    <section id="totals-preview" aria-labelledby="totals-preview-heading" tabindex={-1} autofocus>
      <h3 id="totals-preview-heading">{tr('app.invoices.previewHeading')}</h3>
      <dl>
        <dt>{tr('app.common.net')}</dt>
        <dd id="preview-net">{money(preview.netAmount)}</dd>
        {preview.taxes.map((t) => (
          <>
            <dt>{tr('app.invoices.vatAt', { rate: (t.rate * 100).toFixed(1), base: swissAmount(t.base) })}</dt>
            <dd data-tax={t.taxAccount}>{money(t.amount)}</dd>
          </>
        ))}
        <dt>{tr('app.common.total')}</dt>
        <dd id="preview-gross">{money(preview.grossAmount)}</dd>
      </dl>
      <p class="hint">{tr('app.invoices.previewHint')}</p>
    </section>
  );
}

const text = (f: Readonly<Record<string, unknown>>, name: string) => String(f[name] ?? '').trim();
const ID = /^[1-9]\d{0,15}$/;

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
  /** what was typed (a refused form, or one shown again with a row more or the totals) */
  refused?: Refused;
  /** the ledger's totals of the form as typed (Preview totals) */
  preview?: TotalsPreview;
  /** the row to put the focus in (the one just added) */
  focusRow?: number;
}) {
  const { refused } = p;
  const rows = formRows(refused?.values);
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
      <p class="hint">{tr('app.invoices.itemsHint')}</p>
      {Array.from({ length: rows }, (_, i) => {
        const row = tr('app.form.itemRow', { n: i + 1 });
        const at = { i, refused };
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
              autofocus={p.focusRow === i}
            />
            <RowField {...at} prefix="idesc" name="description" label={tr('app.form.textOf', { row })} />
            <RowField {...at} prefix="qty" name="quantity" label={tr('app.form.quantityOf', { row })} decimal />
            <RowField {...at} prefix="price" name="price" label={tr('app.form.priceOf', { row })} decimal />
            <RowField
              {...at}
              prefix="iaccount"
              name="account"
              label={tr('app.form.accountOf', { row })}
              list={ACCOUNT_LIST}
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
      <AddRow rows={rows} />
      {/* the script (assets.ts) puts the totals here as one types; without it, Preview totals does */}
      <div id="totals-live" aria-live="polite">
        {p.preview ? <Totals preview={p.preview} /> : null}
      </div>
      <p>
        <button type="submit" name="action" value="preview" class="secondary" id="preview-totals">
          {tr('app.invoices.previewButton')}
        </button>
      </p>
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
): { body: Record<string, unknown>; rowOf: number[] } | { problem: string; field?: string } {
  const party = text(f, 'party');
  if (!ID.test(party)) return { problem: tr('app.invoices.needsParty'), field: 'party' };
  const items: Record<string, unknown>[] = [];
  /** the form's row of each item sent (empty rows are left out) */
  const rowOf: number[] = [];
  for (let i = 0; i < formRows(f); i++) {
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
    rowOf.push(i);
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
  return { body, rowOf };
}

/** A refusal of the ledger about an item (`/items/1/price`), named by the form's row of that item. */
export function atFormRow(refused: Refused, rowOf: readonly number[]): Refused {
  const m = /^\/?items(?:\[(\d+)\]|[./](\d+))[./](\w+)$/.exec(refused.field ?? '');
  if (!m) return refused;
  const row = rowOf[Number(m[1] ?? m[2])];
  const input = ({ taxAccount: 'tax', service_id: 'service' } as Record<string, string>)[m[3]!] ?? m[3];
  return row === undefined ? refused : { ...refused, field: `${input}_${row}` };
}
