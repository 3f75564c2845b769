/**
 * A party's payments on its page: the payments and allocations of its documents
 * (`GET /arap/payments/{vc}?{vc}_id=`, filtered by the ledger; the party's newest 1,000),
 * newest first, with the document paid, the amount, the bank or cash account and the state.
 */
import { type Role, roleHas } from '@ledger/shared';
import type { CompanyPage } from './access.tsx';
import { listOf } from './access.tsx';
import type { Vc } from './draftForm.tsx';
import { tr } from './language.ts';
import { ColumnHeads, day, navEntry, numeric, swissAmount } from './ui.tsx';

interface PaymentRow {
  id: number;
  document_id: number;
  document_kind?: string;
  invNumber?: string;
  date: string;
  amount: number;
  currency: string;
  account?: string;
  kind?: 'payment' | 'allocation';
  status: string;
}

const READ = { customer: 'customers.reports.transactions', vendor: 'vendors.reports.transactions' } as const;

/** The party's payments, newest first; none when the role may not read them. */
export async function partyPayments(page: CompanyPage, vc: Vc, id: number): Promise<PaymentRow[]> {
  if (!roleHas(page.company.role, READ[vc])) return [];
  return listOf<PaymentRow>(page, `/arap/payments/${vc}?${vc}_id=${id}&limit=1000&sort=-date`);
}

export function PartyPayments(p: { vc: Vc; rows: PaymentRow[]; dataset: string; role: Role }) {
  if (!roleHas(p.role, READ[p.vc])) return null;
  const side = navEntry(p.vc === 'customer' ? 'invoices' : 'bills');
  return (
    <section aria-labelledby="party-payments-heading">
      <h2 id="party-payments-heading">{tr('app.parties.payments')}</h2>
      {p.rows.length ? (
        <div class="table-wrap">
          <table id="party-payments">
            <ColumnHeads
              columns={[
                tr('app.common.date'),
                tr('app.invoices.number'),
                numeric(tr('app.parties.paymentAmount')),
                tr('app.parties.paymentAccount'),
                tr('app.common.status'),
              ]}
            />
            <tbody>
              {p.rows.map((r) => (
                <tr data-payment={r.id}>
                  <td>{day(r.date)}</td>
                  <td>
                    {r.document_kind === 'invoice' && side.allowed(p.role) ? (
                      <a href={`${side.path(p.dataset)}/${r.document_id}`}>{r.invNumber ?? String(r.document_id)}</a>
                    ) : (
                      (r.invNumber ?? String(r.document_id))
                    )}
                  </td>
                  <td class="num">{`${r.currency} ${swissAmount(r.amount)}`}</td>
                  <td>{r.kind === 'allocation' ? tr('app.parties.allocation') : (r.account ?? '')}</td>
                  <td>{r.status === 'reversed' ? tr('app.parties.paymentReversed') : tr('app.status.posted')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-party-payments">{tr('app.parties.noPayments')}</p>
      )}
    </section>
  );
}
