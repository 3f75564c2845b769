/**
 * One invoice or bill on its page: its header, items, VAT per rate and totals as the ledger
 * computed them (GET /arap/invoice/{vc}/{id}), the PDF (opened in the browser), and the forms
 * for what can be done next: a draft is changed and posted on the workstation; a posted one is
 * sent by e-mail (customers), paid while open, and reversed. Each form is shown only to a role
 * the ledger would let do it; the ledger checks again.
 */
import { type Permission, type Role, roleHas } from '@ledger/shared';
import type { Vc } from './draftForm.tsx';
import { tr } from './language.ts';
import {
  ACCOUNT_LIST,
  accountName,
  type ChartAccount,
  ColumnHeads,
  Csrf,
  day,
  Field,
  numeric,
  type Refused,
  shown,
  swissAmount,
  when,
} from './ui.tsx';

/** The read shape of GET /arap/invoice/{vc}/{id}, the fields the page uses. */
export interface InvoiceRead {
  id: number;
  vc: Vc;
  name: string;
  invNumber: string;
  documentNumber?: string;
  invDate: string;
  dueDate?: string;
  currency: string;
  status: string;
  payment_status?: string;
  netAmount: number;
  taxAmount: number;
  grossAmount: number;
  paid: number;
  open: number;
  notes?: string;
  reversalOf?: number | null;
  reversedBy?: number | null;
  reminder_level?: number;
  items: { description?: string; quantity: number; unit?: string; price?: number; account?: string; amount?: number }[];
  taxes: { taxAccount: string; rate: number; base: number; amount: number }[];
  emails?: { to?: string; at?: string; status?: string }[];
}

export const STATUSES = ['draft', 'posted', 'reversed'] as const;

/** A document's status or payment status in the page's language. */
export function documentState(row: { status: string; payment_status?: string; reversalOf?: number | null }): string {
  // a reversal settles its original: its own "open" amount is the negated original's, not a debt
  if (row.reversalOf) return tr('app.invoices.status.reversal');
  const status = (STATUSES as readonly string[]).includes(row.status)
    ? tr(`app.invoices.status.${row.status as (typeof STATUSES)[number]}`)
    : row.status;
  if (row.status !== 'posted' || !row.payment_status) return status;
  const paid = ['open', 'partial', 'paid'].includes(row.payment_status)
    ? tr(`app.invoices.payment.${row.payment_status as 'open' | 'partial' | 'paid'}`)
    : row.payment_status;
  return `${status}, ${paid}`;
}

const PAY: Record<Vc, Permission> = { customer: 'customers.postings.receipt', vendor: 'vendors.postings.payment' };
const REVERSE: Record<Vc, Permission> = { customer: 'customers.postings.reverse', vendor: 'vendors.postings.reverse' };

export function DocumentView(p: {
  vc: Vc;
  doc: InvoiceRead;
  base: string;
  dataset: string;
  role: Role;
  csrf: string;
  today: string;
  accounts: ChartAccount[];
  paymentAccount: string;
  refused?: Refused;
}) {
  const { doc, vc, refused } = p;
  const href = `${p.base}/${doc.id}`;
  const money = (v: number) => `${doc.currency} ${swissAmount(v)}`;
  const posted = doc.status === 'posted';
  const open = posted && doc.open > 0 && !doc.reversalOf;
  return (
    <>
      <p>
        <a href={p.base}>{tr(`app.invoices.back.${vc}`)}</a>
      </p>
      <dl id="document">
        <dt>{tr(vc === 'customer' ? 'app.invoices.customer' : 'app.invoices.vendor')}</dt>
        <dd>{doc.name}</dd>
        {doc.documentNumber ? (
          <>
            <dt>{tr('app.invoices.documentNumber')}</dt>
            <dd>{doc.documentNumber}</dd>
          </>
        ) : null}
        <dt>{tr('app.common.date')}</dt>
        <dd>{day(doc.invDate)}</dd>
        <dt>{tr('app.common.dueDate')}</dt>
        <dd>{day(doc.dueDate) || '—'}</dd>
        <dt>{tr('app.common.status')}</dt>
        <dd id="document-status">{documentState(doc)}</dd>
      </dl>
      <p>
        <a href={`${href}/pdf`} id="pdf" target="_blank" rel="noopener">
          {tr('app.invoices.pdf')}
        </a>
      </p>
      <div class="table-wrap">
        <table id="items">
          <caption>{tr('app.invoices.items')}</caption>
          <ColumnHeads
            columns={[
              tr('app.common.description'),
              numeric(tr('app.invoices.quantity')),
              numeric(tr('app.invoices.price')),
              tr('app.common.account'),
              numeric(tr('app.common.amount')),
            ]}
          />
          <tbody>
            {doc.items.map((it) => (
              <tr>
                <td>{it.description ?? ''}</td>
                <td class="num">{`${it.quantity}${it.unit ? ` ${it.unit}` : ''}`}</td>
                <td class="num">{swissAmount(it.price)}</td>
                <td>{accountName(p.accounts, it.account)}</td>
                <td class="num">{swissAmount(it.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl id="totals">
        <dt>{tr('app.common.net')}</dt>
        <dd>{money(doc.netAmount)}</dd>
        {doc.taxes.map((t) => (
          <>
            <dt>{tr('app.invoices.vatAt', { rate: (t.rate * 100).toFixed(1), base: swissAmount(t.base) })}</dt>
            <dd>{money(t.amount)}</dd>
          </>
        ))}
        <dt>{tr('app.common.total')}</dt>
        <dd id="gross">{money(doc.grossAmount)}</dd>
        {posted ? (
          <>
            <dt>{tr('app.invoices.paid')}</dt>
            <dd>{money(doc.paid)}</dd>
            <dt>{tr('app.invoices.open')}</dt>
            <dd id="open">{money(doc.open)}</dd>
          </>
        ) : null}
      </dl>
      {doc.status === 'draft' ? (
        <p id="draft-hint">
          {tr('app.invoices.draftHint')}{' '}
          <a href={`/books/${p.dataset}/workstation/${vc}/${doc.id}`}>{tr('app.invoices.toDraft')}</a>
        </p>
      ) : null}
      {doc.emails?.length ? (
        <section aria-labelledby="emails-heading">
          <h2 id="emails-heading">{tr('app.invoices.emails')}</h2>
          <ul id="emails">
            {doc.emails.map((e) => (
              <li>{`${when(e.at)} · ${e.to ?? ''} · ${e.status ?? ''}`}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {vc === 'customer' && posted && roleHas(p.role, 'customers.postings.sales_invoice') ? (
        <section aria-labelledby="email-heading">
          <h2 id="email-heading">{tr('app.invoices.send')}</h2>
          <form method="post" action={`${href}/email`} id="send">
            <Csrf token={p.csrf} />
            <Field
              id="e-to"
              name="to"
              type="email"
              label={tr('app.invoices.to')}
              value={shown(refused, 'to', '')}
              refused={refused}
            />
            <Field
              id="e-message"
              name="message"
              label={tr('app.invoices.message')}
              value={shown(refused, 'message', '')}
              refused={refused}
            />
            <p>
              <button type="submit">{tr('app.invoices.sendButton')}</button>
            </p>
          </form>
        </section>
      ) : null}
      {vc === 'customer' &&
      open &&
      doc.dueDate &&
      doc.dueDate < p.today &&
      roleHas(p.role, 'customers.postings.sales_invoice') ? (
        <section aria-labelledby="reminder-heading">
          <h2 id="reminder-heading">{tr('app.invoices.reminder')}</h2>
          <form method="post" action={`${href}/reminder`} id="reminder">
            <Csrf token={p.csrf} />
            <p class="hint">{tr('app.invoices.reminderHint', { level: (doc.reminder_level ?? 0) + 1 })}</p>
            <Field
              id="r-fee"
              name="fee"
              label={tr('app.invoices.fee')}
              value={shown(refused, 'fee', '')}
              decimal
              refused={refused}
            />
            <p>
              <button type="submit">{tr('app.invoices.reminderButton')}</button>
            </p>
          </form>
        </section>
      ) : null}
      {open && roleHas(p.role, PAY[vc]) ? (
        <section aria-labelledby="payment-heading">
          <h2 id="payment-heading">{tr(`app.invoices.pay.${vc}`)}</h2>
          <form method="post" action={`${href}/payment`} id="payment">
            <Csrf token={p.csrf} />
            <Field
              id="pay-date"
              name="date"
              type="date"
              label={tr('app.common.date')}
              value={shown(refused, 'date', p.today)}
              required
              refused={refused}
            />
            <Field
              id="pay-amount"
              name="amount"
              label={tr('app.common.amount')}
              value={shown(refused, 'amount', swissAmount(doc.open))}
              decimal
              required
              refused={refused}
            />
            <Field
              id="pay-account"
              name="account"
              label={tr('app.invoices.payAccount')}
              value={shown(refused, 'account', p.paymentAccount)}
              list={ACCOUNT_LIST}
              required
              refused={refused}
            />
            <Field id="pay-memo" name="memo" label={tr('app.invoices.memo')} value={shown(refused, 'memo', '')} />
            <p>
              <button type="submit">{tr('app.invoices.payButton')}</button>
            </p>
          </form>
        </section>
      ) : null}
      {posted && !doc.reversalOf && !doc.reversedBy && roleHas(p.role, REVERSE[vc]) ? (
        <section aria-labelledby="reverse-heading">
          <h2 id="reverse-heading">{tr('app.invoices.reverse')}</h2>
          <form method="post" action={`${href}/reverse`} id="reverse">
            <Csrf token={p.csrf} />
            <p class="hint">{tr('app.invoices.reverseHint')}</p>
            <Field
              id="reverse-date"
              name="reverse_date"
              type="date"
              label={tr('app.common.date')}
              value={shown(refused, 'reverse_date', p.today)}
              refused={refused}
            />
            <p>
              <button type="submit" class="secondary">
                {tr('app.invoices.reverseButton')}
              </button>
            </p>
          </form>
        </section>
      ) : null}
    </>
  );
}
