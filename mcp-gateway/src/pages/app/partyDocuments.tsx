/**
 * A party's documents on its page: its AR/AP transactions and invoices
 * (`GET /arap/documents/{vc}?customer_id=` or `vendor_id=`), newest first, with total, open
 * amount and state. An invoice links to its page on Books → Invoices or
 * Bills, where it is paid, sent or reversed.
 */
import { type Role, roleHas } from '@ledger/shared';
import type { CompanyPage } from './access.tsx';
import { listOf } from './access.tsx';
import type { Vc } from './draftForm.tsx';
import { documentState } from './invoicePage.tsx';
import { tr } from './language.ts';
import { ColumnHeads, day, navEntry, numeric, swissAmount } from './ui.tsx';

interface DocumentRow {
  id: number;
  kind: 'invoice' | 'transaction';
  invNumber: string;
  invDate: string;
  dueDate?: string;
  currency: string;
  status: string;
  payment_status?: string;
  grossAmount?: number;
  amount?: number;
  open?: number;
  reversalOf?: number | null;
}

const READ = { customer: 'customers.reports.transactions', vendor: 'vendors.reports.transactions' } as const;
const WRITE = { customer: 'customers.postings.sales_invoice', vendor: 'vendors.postings.vendor_invoice' } as const;

/** The party's documents, none when the role may not read them. */
export async function partyDocuments(page: CompanyPage, vc: Vc, id: number): Promise<DocumentRow[]> {
  if (!roleHas(page.company.role, READ[vc])) return [];
  const rows = await listOf<DocumentRow>(page, `/arap/documents/${vc}?${vc}_id=${id}&limit=500&sort=id`);
  return rows.reverse();
}

export function PartyDocuments(p: { vc: Vc; id: number; rows: DocumentRow[]; dataset: string; role: Role }) {
  if (!roleHas(p.role, READ[p.vc])) return null;
  const side = navEntry(p.vc === 'customer' ? 'invoices' : 'bills');
  return (
    <section aria-labelledby="party-documents-heading">
      <h2 id="party-documents-heading">{tr('app.parties.documents')}</h2>
      {roleHas(p.role, WRITE[p.vc]) && side.allowed(p.role) ? (
        <p>
          <a href={`${side.path(p.dataset)}?party=${p.id}#new-heading`} id="new-for-party">
            {tr(`app.invoices.new.${p.vc}`)}
          </a>
        </p>
      ) : null}
      {p.rows.length ? (
        <div class="table-wrap">
          <table id="party-documents">
            <ColumnHeads
              columns={[
                tr('app.invoices.number'),
                tr('app.common.date'),
                tr('app.common.due'),
                numeric(tr('app.common.total')),
                numeric(tr('app.invoices.open')),
                tr('app.common.status'),
              ]}
            />
            <tbody>
              {p.rows.map((r) => (
                <tr data-document={r.id}>
                  <td>
                    {r.kind === 'invoice' && side.allowed(p.role) ? (
                      <a href={`${side.path(p.dataset)}/${r.id}`}>{r.invNumber}</a>
                    ) : (
                      r.invNumber
                    )}
                  </td>
                  <td>{day(r.invDate)}</td>
                  <td>{day(r.dueDate)}</td>
                  <td class="num">{`${r.currency} ${swissAmount(r.grossAmount ?? r.amount)}`}</td>
                  <td class="num">{swissAmount(r.open)}</td>
                  <td>{documentState(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-party-documents">{tr('app.parties.noDocuments')}</p>
      )}
    </section>
  );
}
