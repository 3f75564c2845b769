/**
 * A vendor's bank accounts on its page (`GET /arap/vendor/{id}/bank_accounts`): IBAN in groups of
 * four, BIC, holder and description, and for roles that change vendors a form to add one
 * (`POST /arap/vendor/{id}/bank_accounts`: the ledger checks the IBAN with mod-97 and the BIC's
 * format) and a page per account (`…/bank-accounts/{bankId}`) to change it
 * (`POST /arap/vendor/{id}/bank_accounts/{bankId}`: an emptied BIC, holder or description is
 * cleared) or delete it (`DELETE …`, refused by the ledger while a bill names it). A bill names
 * one of these to be paid by a payment file.
 */
import { formatIban, roleHas } from '@ledger/shared';
import type { CompanyPage } from './access.tsx';
import { listOf } from './access.tsx';
import { tr } from './language.ts';
import { ColumnHeads, Csrf, Field, type Refused, shown } from './ui.tsx';

export interface VendorBankAccount {
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

/**
 * The change of an account from its page's form: every field sent, an emptied BIC, holder or
 * description as null (cleared), the IBAN as typed when it changed (the ledger refuses an empty
 * or wrong one).
 */
export function bankAccountUpdate(
  f: Readonly<Record<string, unknown>>,
  stored: VendorBankAccount,
): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  for (const name of BANK_FIELDS) {
    const value = String(f[`bank_${name}`] ?? '').trim();
    body[name] = value === '' && name !== 'iban' ? null : value;
  }
  // an unchanged IBAN (as shown, in groups of four) is not sent: the ledger refuses any change of
  // the IBAN of an account a posted bill names, and the other fields stay changeable
  if (compact(body.iban ?? '') === compact(stored.iban)) delete body.iban;
  return body;
}

const compact = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

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
  const mayChange = roleHas(page.company.role, 'vendors.add_vendor');
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
                    {mayChange ? (
                      <a href={`${p.action}/${b.id}`}>
                        <code>{formatIban(b.iban)}</code>
                      </a>
                    ) : (
                      <code>{formatIban(b.iban)}</code>
                    )}
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
      {mayChange ? (
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

/**
 * One bank account on its own page: the form that changes it and the one that deletes it, for
 * roles that change vendors; the account's fields to read for the others.
 */
export function VendorBankAccountPage(p: {
  page: CompanyPage;
  /** the account's own path: the change posts here, the deletion to `…/delete` */
  action: string;
  /** the vendor's page */
  back: { href: string; name: string };
  bank: VendorBankAccount;
  refused?: Refused | undefined;
}) {
  const { page, bank, refused } = p;
  const stored = (f: (typeof BANK_FIELDS)[number]) => bank[f] ?? '';
  return (
    <>
      <p>
        <a href={p.back.href}>{`← ${p.back.name}`}</a>
      </p>
      {roleHas(page.company.role, 'vendors.add_vendor') ? (
        <>
          <form method="post" action={p.action} id="vendor-bank-change">
            <Csrf token={page.csrf} />
            {BANK_FIELDS.map((f) => (
              <Field
                id={`bank-${f}`}
                name={`bank_${f}`}
                label={tr(`app.parties.bank.${f}`)}
                value={shown(refused, `bank_${f}`, f === 'iban' ? formatIban(stored(f)) : stored(f))}
                required={f === 'iban'}
                refused={refused}
              />
            ))}
            <p class="hint">{tr('app.parties.bank.emptyCleared')}</p>
            <p>
              <button type="submit">{tr('app.parties.save')}</button>
            </p>
          </form>
          <section aria-labelledby="bank-delete-heading">
            <h2 id="bank-delete-heading">{tr('app.parties.bank.deleteHeading')}</h2>
            <p class="hint">{tr('app.parties.bank.deleteHint')}</p>
            <form method="post" action={`${p.action}/delete`} id="vendor-bank-delete">
              <Csrf token={page.csrf} />
              <button type="submit" class="danger">
                {tr('app.parties.bank.delete')}
              </button>
            </form>
          </section>
        </>
      ) : (
        <dl id="vendor-bank">
          {BANK_FIELDS.map((f) => (
            <>
              <dt>{tr(`app.parties.bank.${f}`)}</dt>
              <dd>{(f === 'iban' ? formatIban(stored(f)) : stored(f)) || '—'}</dd>
            </>
          ))}
        </dl>
      )}
    </>
  );
}
