/**
 * A vendor's bank accounts on its page (`GET /arap/vendor/{id}/bank_accounts`): IBAN in groups of
 * four, BIC, holder and description, and for roles that change vendors a form to add one
 * (`POST /arap/vendor/{id}/bank_accounts`: the ledger checks the IBAN with mod-97 and the BIC's
 * format). A bill names one of these to be paid by a payment file.
 */
import { formatIban, roleHas } from '@ledger/shared';
import type { CompanyPage } from './access.tsx';
import { listOf } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, Field, type Refused, shown } from './ui.tsx';

interface VendorBankAccount {
  id: number;
  iban: string;
  bic?: string;
  name?: string;
  description?: string;
}

/** The form's fields, as the contract names them (labelled `app.parties.bank.{name}`). */
export const BANK_FIELDS = ['iban', 'bic', 'name', 'description'] as const;

/** The vendor's bank accounts, oldest first; none when the role may not read vendors. */
export async function vendorBankAccounts(page: CompanyPage, id: number): Promise<VendorBankAccount[]> {
  if (!roleHas(page.company.role, 'vendors.vendors')) return [];
  return listOf<VendorBankAccount>(page, `/arap/vendor/${id}/bank_accounts?limit=1000`);
}

/** The write body of the form: the fields typed (an empty one is left out). */
export function bankAccountBody(f: Readonly<Record<string, unknown>>): Record<string, string> {
  const body: Record<string, string> = {};
  for (const name of BANK_FIELDS) {
    const value = String(f[`bank_${name}`] ?? '').trim();
    if (value !== '') body[name] = value;
  }
  return body;
}

/** A refusal of the bank account form, its field named as the form names it (`iban` → `bank_iban`). */
export function bankRefusal(refused: Refused): Refused {
  const field = refused.field?.replace(/^\//, '');
  return { ...refused, ...(field ? { field: `bank_${field}` } : {}) };
}

export function VendorBankAccounts(p: {
  page: CompanyPage;
  action: string;
  rows: VendorBankAccount[];
  refused?: Refused | undefined;
}) {
  const { page, rows, refused } = p;
  if (!roleHas(page.company.role, 'vendors.vendors')) return null;
  return (
    <section aria-labelledby="vendor-banks-heading">
      <h2 id="vendor-banks-heading">{tr('app.parties.bankAccounts')}</h2>
      {rows.length ? (
        <div class="table-wrap">
          <table id="vendor-banks">
            <ColumnHeads
              columns={[
                tr('app.parties.bank.iban'),
                tr('app.parties.bank.bic'),
                tr('app.parties.bank.name'),
                tr('app.parties.bank.description'),
              ]}
            />
            <tbody>
              {rows.map((b) => (
                <tr data-bank={b.id}>
                  <td>
                    <code>{formatIban(b.iban)}</code>
                  </td>
                  <td>{b.bic ?? ''}</td>
                  <td>{b.name ?? ''}</td>
                  <td>{b.description ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-vendor-banks">{tr('app.parties.noBankAccounts')}</p>
      )}
      {roleHas(page.company.role, 'vendors.add_vendor') ? (
        <form method="post" action={p.action} id="vendor-bank-form">
          <Csrf token={page.csrf} />
          <h3>{tr('app.parties.addBankAccount')}</h3>
          {BANK_FIELDS.map((f) => (
            <Field
              id={`bank-${f}`}
              name={`bank_${f}`}
              label={tr(`app.parties.bank.${f}`)}
              value={shown(refused, `bank_${f}`, '')}
              required={f === 'iban'}
              refused={refused}
            />
          ))}
          <p>
            <button type="submit">{tr('app.parties.addBankAccountButton')}</button>
          </p>
        </form>
      ) : null}
    </section>
  );
}
