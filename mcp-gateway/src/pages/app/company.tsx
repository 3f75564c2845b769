/**
 * System → Management → Company (`/management/{dataset}/company`): the company's settings and
 * its own bank accounts. Every member reads them; owners and admins change them (the forms
 * are shown only to them, and the ledger checks `system.company` / `bank.manage_accounts`):
 * the settings, a new bank account, and each bank account on its own page
 * (`/management/{dataset}/company/bank-accounts/{id}`).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { type contracts, roleHas, type ResponseOf } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { ledgerError, seeOther } from './access.tsx';
import { ColumnHeads, Csrf, NAV, Notice, renderPage } from './ui.tsx';

type Settings = Record<(typeof FIELDS)[number]['name'] | 'invoice_bank_account_id', string | number | null>;

/** A company bank account as the ledger reads it (the contract's answer, not a copy of its fields). */
type BankAccount = ResponseOf<typeof contracts.getBankAccount>;

const TITLE = 'System → Management → Company';
const ENTRY = NAV.flatMap((g) => g.entries).find((e) => e.label === 'Company')!;

/** The settings' text fields; `keep`: may be changed but never cleared (an empty field is not sent). */
const FIELDS = [
  { name: 'name', label: 'Legal name', keep: true },
  { name: 'street', label: 'Street' },
  { name: 'house_number', label: 'House number' },
  { name: 'zip', label: 'Postal code' },
  { name: 'city', label: 'City' },
  { name: 'country', label: 'Country (two letters, e.g. CH)' },
  { name: 'vat_number', label: 'VAT number (e.g. CHE-123.456.788 MWST)' },
  { name: 'email', label: 'Invoice e-mail' },
  { name: 'rounding_account', label: 'Rounding account', keep: true },
  { name: 'fx_gain_loss_account', label: 'Exchange differences account' },
  { name: 'retained_earnings_account', label: 'Retained earnings account', keep: true },
  { name: 'reminder_fee_account', label: 'Reminder fee account' },
] as const;

const BANK_FIELDS = [
  { name: 'name', label: 'Name (e.g. UBS current account)', required: true },
  { name: 'iban', label: 'IBAN', required: true },
  { name: 'qr_iban', label: 'QR-IBAN (optional)', required: false },
  { name: 'bic', label: 'BIC (optional)', required: false },
  { name: 'currency', label: 'Currency', required: true },
  { name: 'account', label: 'Chart account (e.g. 1020)', required: true },
] as const;

const NOTICES: Record<string, string> = {
  saved: 'The settings are saved.',
  bank: 'The bank account is added.',
  bankSaved: 'The bank account is changed.',
};
const ID = /^[1-9]\d{0,15}$/;

/** A bank form's fields as the ledger takes them: optional ones empty → null (cleared). */
function bankFields(f: Readonly<Record<string, unknown>>): Record<string, string | null> {
  const account: Record<string, string | null> = {};
  for (const field of BANK_FIELDS) {
    const value = String(f[field.name] ?? '').trim();
    account[field.name] = value === '' && !field.required ? null : value;
  }
  return account;
}

/** The inputs of a bank account form, filled with `values` (a stored account or what was entered). */
function BankInputs({ values }: { values?: Partial<Record<string, string | number | null>> }) {
  return (
    <>
      {BANK_FIELDS.map((f) => (
        <>
          <label for={`b-${f.name}`}>{f.label}</label>
          <input
            type="text"
            id={`b-${f.name}`}
            name={f.name}
            required={f.required}
            value={values ? String(values[f.name] ?? '') : f.name === 'currency' ? 'CHF' : undefined}
          />
        </>
      ))}
    </>
  );
}

/** `entered`: the values of a refused settings form, shown again instead of the stored ones. */
async function show(
  ctx: Context,
  page: CompanyPage,
  status: number,
  top: unknown,
  entered?: Partial<Settings>,
): Promise<void> {
  const [settingsAnswer, banksAnswer] = await Promise.all([
    page.call('GET', '/system/company'),
    page.call('GET', '/bank/accounts?limit=1000'),
  ]);
  const settings = { ...(settingsAnswer.status === 200 ? (settingsAnswer.body as Partial<Settings>) : {}), ...entered };
  const banks = banksAnswer.status === 200 ? (banksAnswer.body as BankAccount[]) : [];
  const base = ENTRY.path(page.company.dataset);
  const mayChange = roleHas(page.company.role, 'system.company');
  const mayAddBank = roleHas(page.company.role, 'bank.manage_accounts');
  const invoiceBank = banks.find((b) => b.id === settings.invoice_bank_account_id);
  await renderPage(
    ctx,
    status,
    { title: TITLE, ...page, current: base },
    <>
      {top}
      <h2>Settings</h2>
      {mayChange ? (
        <form method="post" action={base} id="settings">
          <Csrf token={page.csrf} />
          {FIELDS.map((f) => (
            <>
              <label for={`f-${f.name}`}>{f.label}</label>
              <input
                type="text"
                id={`f-${f.name}`}
                name={f.name}
                value={String(settings[f.name] ?? '')}
                required={'keep' in f}
              />
            </>
          ))}
          <label for="f-invoice_bank_account_id">Bank account on invoices</label>
          <select id="f-invoice_bank_account_id" name="invoice_bank_account_id">
            <option value="">none</option>
            {banks.map((b) => (
              <option value={String(b.id)} selected={b.id === settings.invoice_bank_account_id}>
                {b.name} ({b.iban})
              </option>
            ))}
          </select>
          <p>
            <button type="submit">Save settings</button>
          </p>
        </form>
      ) : (
        <>
          <p class="hint">Owners and admins change these settings.</p>
          <dl id="settings">
            {FIELDS.map((f) => (
              <>
                <dt>{f.label}</dt>
                <dd>{String(settings[f.name] ?? '—')}</dd>
              </>
            ))}
            <dt>Bank account on invoices</dt>
            <dd>{invoiceBank ? `${invoiceBank.name} (${invoiceBank.iban})` : '—'}</dd>
          </dl>
        </>
      )}
      <h2>Bank accounts</h2>
      {banks.length ? (
        <div class="table-wrap">
          <table id="bank-accounts">
            <caption>Bank accounts of {page.company.name}</caption>
            <ColumnHeads
              columns={['Name', 'IBAN', 'QR-IBAN', 'BIC', 'Currency', 'Account', ...(mayAddBank ? ['Change'] : [])]}
            />
            <tbody>
              {banks.map((b) => (
                <tr>
                  <td>{b.name}</td>
                  <td>
                    <code>{b.iban}</code>
                  </td>
                  <td>{b.qr_iban ? <code>{b.qr_iban}</code> : '—'}</td>
                  <td>{b.bic ?? '—'}</td>
                  <td>{b.currency}</td>
                  <td>{b.account}</td>
                  {mayAddBank ? (
                    <td>
                      <a href={`${base}/bank-accounts/${b.id}`} aria-label={`Change ${b.name}`}>
                        Change
                      </a>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-bank-accounts">There are no bank accounts.</p>
      )}
      {mayAddBank ? (
        <>
          <h3 id="bank-heading">Add a bank account</h3>
          <form method="post" action={`${base}/bank-accounts`} aria-labelledby="bank-heading">
            <Csrf token={page.csrf} />
            <BankInputs />
            <p>
              <button type="submit">Add bank account</button>
            </p>
          </form>
        </>
      ) : null}
    </>,
  );
}

export function companyPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) =>
    access.companyPage(ctx, TITLE, 'Every member reads the company settings.', ENTRY.allowed);
  const refused = (ctx: Context, page: CompanyPage, status: number, message: string, entered?: Partial<Settings>) =>
    show(
      ctx,
      page,
      status >= 500 ? 502 : status,
      <Notice kind="error" id="refusal">
        {message}
      </Notice>,
      entered,
    );

  router.get('/management/:dataset/company', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const text = NOTICES[String(ctx.query.notice ?? '')];
    await show(ctx, page, 200, text ? <Notice kind="ok">{text}</Notice> : null);
  });

  router.post('/management/:dataset/company', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const update: Record<string, string | number | null> = {};
    for (const field of FIELDS) {
      const value = String(f[field.name] ?? '').trim();
      if (value !== '') update[field.name] = value;
      else if (!('keep' in field)) update[field.name] = null;
    }
    const bank = String(f.invoice_bank_account_id ?? '');
    update.invoice_bank_account_id = /^[1-9]\d{0,15}$/.test(bank) ? Number(bank) : null;
    const answer = await page.call('POST', '/system/company', update);
    if (answer.status !== 200) return refused(ctx, page, answer.status, ledgerError(answer).message, update);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=saved`);
  });

  router.post('/management/:dataset/company/bank-accounts', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const account = bankFields(bodyFields(ctx));
    const answer = await page.call('POST', '/bank/accounts', account);
    if (answer.status !== 201) return refused(ctx, page, answer.status, ledgerError(answer).message);
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=bank`);
  });

  /** One bank account's form; `entered`: a refused form's values, shown again. */
  async function showBank(
    ctx: Context,
    page: CompanyPage,
    id: string,
    status: number,
    top: unknown,
    entered?: Record<string, string | null>,
  ) {
    const base = ENTRY.path(page.company.dataset);
    const answer = ID.test(id) ? await page.call('GET', `/bank/accounts/${id}`) : undefined;
    if (answer?.status !== 200) {
      return renderPage(
        ctx,
        404,
        { title: TITLE, ...page, current: base },
        <Notice kind="error">{answer ? ledgerError(answer).message : 'No such bank account.'}</Notice>,
      );
    }
    const bank = answer.body as BankAccount;
    await renderPage(
      ctx,
      status,
      { title: `Bank account ${bank.name}`, ...page, current: base },
      <>
        {top}
        <p>
          <a href={base}>← Company</a>
        </p>
        {roleHas(page.company.role, 'bank.manage_accounts') ? (
          <form method="post" action={`${base}/bank-accounts/${bank.id}`} id="bank-account">
            <Csrf token={page.csrf} />
            <BankInputs values={entered ?? bank} />
            <p class="hint">An empty QR-IBAN or BIC is removed.</p>
            <p>
              <button type="submit">Save bank account</button>
            </p>
          </form>
        ) : (
          <p class="hint">Owners and admins change bank accounts.</p>
        )}
      </>,
    );
  }

  router.get('/management/:dataset/company/bank-accounts/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    await showBank(ctx, page, String(ctx.params.id), 200, null);
  });

  router.post('/management/:dataset/company/bank-accounts/:id', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const id = String(ctx.params.id);
    if (!ID.test(id)) return showBank(ctx, page, id, 404, null);
    const account = bankFields(bodyFields(ctx));
    const answer = await page.call('POST', `/bank/accounts/${id}`, account);
    if (answer.status === 404) return showBank(ctx, page, id, 404, null);
    if (answer.status !== 200) {
      return showBank(
        ctx,
        page,
        id,
        answer.status >= 500 ? 502 : answer.status,
        <Notice kind="error" id="refusal">
          {ledgerError(answer).message} Nothing is changed.
        </Notice>,
        account,
      );
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=bankSaved`);
  });
}
