/**
 * System → Management → Company (`/management/{dataset}/company`): the company's settings and
 * its own bank accounts. Every member reads them; owners and admins change them (the forms
 * are shown only to them, and the ledger checks `system.company` / `bank.manage_accounts`):
 * the settings, a new bank account, and each bank account on its own page
 * (`/management/{dataset}/company/bank-accounts/{id}`).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { type contracts, formatIban, type MessageKey, roleHas, type ResponseOf } from '@ledger/shared';
import { bodyFields } from '../../http/bodyParser.ts';
import type { access as accessOf, CompanyPage } from './access.tsx';
import { chartAccounts, ledgerError, refusedForm, seeOther } from './access.tsx';
import type { LedgerAnswer } from '../../ledgerClient.ts';
import { tr } from './language.ts';
import {
  ACCOUNT_LIST,
  AccountList,
  ColumnHeads,
  Csrf,
  Field,
  Notice,
  navEntry,
  type Refused,
  renderPage,
  shown,
} from './ui.tsx';

type Settings = Record<(typeof FIELDS)[number]['name'] | 'invoice_bank_account_id', string | number | null> & {
  ai_may_post_without_confirmation: boolean;
};

/** A company bank account as the ledger reads it (the contract's answer, not a copy of its fields). */
type BankAccount = ResponseOf<typeof contracts.getBankAccount>;

const title = () => tr('app.company.title');
const ENTRY = navEntry('company');

/**
 * The settings' text fields (labelled `app.company.field.{name}`); `keep`: may be changed but never
 * cleared (an empty field is not sent).
 */
const FIELDS = [
  { name: 'name', keep: true },
  { name: 'street' },
  { name: 'house_number' },
  { name: 'zip' },
  { name: 'city' },
  { name: 'country' },
  { name: 'vat_number' },
  { name: 'email' },
  { name: 'rounding_account', keep: true },
  { name: 'fx_gain_loss_account' },
  { name: 'retained_earnings_account', keep: true },
  { name: 'reminder_fee_account' },
] as const;
const fieldLabel = (name: (typeof FIELDS)[number]['name']) => tr(`app.company.field.${name}`);

/** A bank account's fields (labelled `app.company.bank.{name}`). */
const BANK_FIELDS = [
  { name: 'name', required: true },
  { name: 'iban', required: true },
  { name: 'qr_iban', required: false },
  { name: 'bic', required: false },
  { name: 'currency', required: true },
  { name: 'account', required: true },
] as const;

const NOTICES = {
  saved: 'app.company.saved',
  bank: 'app.company.bankAdded',
  bankSaved: 'app.company.bankSaved',
} as const satisfies Record<string, MessageKey>;
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

/** The settings' fields that name an account of the chart (picked from `AccountList`). */
const ACCOUNT_FIELDS = new Set<string>([
  'rounding_account',
  'fx_gain_loss_account',
  'retained_earnings_account',
  'reminder_fee_account',
  'account',
]);

/**
 * The inputs of a bank account form, filled with `values` (a stored account; none: a new one in CHF),
 * or with what a `refused` form had, its message at its field.
 */
function BankInputs({ values, refused }: { values?: Partial<Record<string, unknown>>; refused?: Refused }) {
  return (
    <>
      {BANK_FIELDS.map((f) => (
        <Field
          id={`b-${f.name}`}
          name={f.name}
          label={tr(`app.company.bank.${f.name}`)}
          required={f.required}
          value={shown(refused, f.name, values ? String(values[f.name] ?? '') : f.name === 'currency' ? 'CHF' : '')}
          list={ACCOUNT_FIELDS.has(f.name) ? ACCOUNT_LIST : undefined}
          refused={refused}
        />
      ))}
    </>
  );
}

/** Which form of the page was refused: its typed values are shown again, its message at its field. */
interface RefusedOn {
  settings?: Refused;
  bank?: Refused;
}

async function show(ctx: Context, page: CompanyPage, status: number, top: unknown, refused: RefusedOn = {}) {
  const [settingsAnswer, banksAnswer, accounts] = await Promise.all([
    page.call('GET', '/system/company'),
    page.call('GET', '/bank/accounts?limit=1000'),
    chartAccounts(page),
  ]);
  const settings: Partial<Settings> = settingsAnswer.status === 200 ? (settingsAnswer.body as Partial<Settings>) : {};
  const banks = banksAnswer.status === 200 ? (banksAnswer.body as BankAccount[]) : [];
  const base = ENTRY.path(page.company.dataset);
  const mayChange = roleHas(page.company.role, 'system.company');
  const mayAddBank = roleHas(page.company.role, 'bank.manage_accounts');
  const invoiceBank = banks.find((b) => b.id === settings.invoice_bank_account_id);
  await renderPage(
    ctx,
    status,
    { title: title(), ...page, current: base },
    <>
      {top}
      <AccountList accounts={accounts} />
      <h2>{tr('app.company.settings')}</h2>
      {mayChange ? (
        <form method="post" action={base} id="settings">
          <Csrf token={page.csrf} />
          {FIELDS.map((f) => (
            <Field
              id={`f-${f.name}`}
              name={f.name}
              label={fieldLabel(f.name)}
              value={shown(refused.settings, f.name, String(settings[f.name] ?? ''))}
              required={'keep' in f}
              list={ACCOUNT_FIELDS.has(f.name) ? ACCOUNT_LIST : undefined}
              refused={refused.settings}
            />
          ))}
          <label for="f-invoice_bank_account_id">{tr('app.company.invoiceBank')}</label>
          <select id="f-invoice_bank_account_id" name="invoice_bank_account_id">
            <option value="">{tr('app.common.none')}</option>
            {banks.map((b) => (
              <option value={String(b.id)} selected={b.id === settings.invoice_bank_account_id}>
                {b.name} ({formatIban(b.iban)})
              </option>
            ))}
          </select>
          <p>
            <input
              type="checkbox"
              id="f-ai_may_post_without_confirmation"
              name="ai_may_post_without_confirmation"
              value="yes"
              aria-describedby="ai-may-post-hint"
              checked={
                refused.settings
                  ? refused.settings.values.ai_may_post_without_confirmation === 'yes'
                  : settings.ai_may_post_without_confirmation === true
              }
            />{' '}
            <label for="f-ai_may_post_without_confirmation">{tr('app.company.aiMayPost')}</label>
          </p>
          <p class="hint" id="ai-may-post-hint">
            {tr('app.company.aiMayPostHint')}
          </p>
          <p>
            <button type="submit">{tr('app.company.saveSettings')}</button>
          </p>
        </form>
      ) : (
        <>
          <p class="hint">{tr('app.company.byManagers')}</p>
          <dl id="settings">
            {FIELDS.map((f) => (
              <>
                <dt>{fieldLabel(f.name)}</dt>
                <dd>{String(settings[f.name] ?? '—')}</dd>
              </>
            ))}
            <dt>{tr('app.company.invoiceBank')}</dt>
            <dd>{invoiceBank ? `${invoiceBank.name} (${formatIban(invoiceBank.iban)})` : '—'}</dd>
          </dl>
        </>
      )}
      <h2>{tr('app.company.bankAccounts')}</h2>
      {banks.length ? (
        <div class="table-wrap">
          <table id="bank-accounts">
            <caption>{tr('app.company.bankCaption', { company: page.company.name })}</caption>
            <ColumnHeads
              columns={[
                tr('app.common.name'),
                'IBAN',
                'QR-IBAN',
                'BIC',
                tr('app.common.currency'),
                tr('app.company.chartAccount'),
                ...(mayAddBank ? [tr('app.common.change')] : []),
              ]}
            />
            <tbody>
              {banks.map((b) => (
                <tr>
                  <td>{b.name}</td>
                  <td>
                    <code>{formatIban(b.iban)}</code>
                  </td>
                  <td>{b.qr_iban ? <code>{formatIban(b.qr_iban)}</code> : '—'}</td>
                  <td>{b.bic ?? '—'}</td>
                  <td>{b.currency}</td>
                  <td>{b.account}</td>
                  {mayAddBank ? (
                    <td>
                      <a
                        href={`${base}/bank-accounts/${b.id}`}
                        aria-label={tr('app.company.changeLabel', { name: b.name })}
                      >
                        {tr('app.common.change')}
                      </a>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p id="no-bank-accounts">{tr('app.company.noBanks')}</p>
      )}
      {mayAddBank ? (
        <>
          <h3 id="bank-heading">{tr('app.company.addBank')}</h3>
          <form method="post" action={`${base}/bank-accounts`} aria-labelledby="bank-heading">
            <Csrf token={page.csrf} />
            <BankInputs refused={refused.bank} />
            <p>
              <button type="submit">{tr('app.company.addBankButton')}</button>
            </p>
          </form>
        </>
      ) : null}
    </>,
  );
}

export function companyPages(router: Router, access: ReturnType<typeof accessOf>): void {
  const open = (ctx: Context) => access.companyPage(ctx, title(), tr('app.company.why'), ENTRY.allowed);
  const refusal = (ctx: Context, page: CompanyPage, answer: LedgerAnswer, on: RefusedOn) =>
    show(
      ctx,
      page,
      answer.status >= 500 ? 502 : answer.status,
      <Notice kind="error" id="refusal">
        {ledgerError(answer).message}
      </Notice>,
      on,
    );

  router.get('/management/:dataset/company', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const key = NOTICES[String(ctx.query.notice ?? '') as keyof typeof NOTICES];
    await show(ctx, page, 200, key ? <Notice kind="ok">{tr(key)}</Notice> : null);
  });

  router.post('/management/:dataset/company', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const update: Record<string, string | number | boolean | null> = {};
    for (const field of FIELDS) {
      const value = String(f[field.name] ?? '').trim();
      if (value !== '') update[field.name] = value;
      else if (!('keep' in field)) update[field.name] = null;
    }
    const bank = String(f.invoice_bank_account_id ?? '');
    update.invoice_bank_account_id = /^[1-9]\d{0,15}$/.test(bank) ? Number(bank) : null;
    // a checkbox is sent only when ticked
    update.ai_may_post_without_confirmation = f.ai_may_post_without_confirmation === 'yes';
    const answer = await page.call('POST', '/system/company', update);
    if (answer.status !== 200) return refusal(ctx, page, answer, { settings: refusedForm(f, answer) });
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=saved`);
  });

  router.post('/management/:dataset/company/bank-accounts', async (ctx) => {
    const page = await open(ctx);
    if (!page) return;
    const f = bodyFields(ctx);
    const answer = await page.call('POST', '/bank/accounts', bankFields(f));
    if (answer.status !== 201) return refusal(ctx, page, answer, { bank: refusedForm(f, answer) });
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=bank`);
  });

  /** One bank account's form; `entered`: a refused form's values, shown again. */
  async function showBank(
    ctx: Context,
    page: CompanyPage,
    id: string,
    status: number,
    top: unknown,
    refused?: Refused,
  ) {
    const base = ENTRY.path(page.company.dataset);
    const answer = ID.test(id) ? await page.call('GET', `/bank/accounts/${id}`) : undefined;
    if (answer?.status !== 200) {
      return renderPage(
        ctx,
        404,
        { title: title(), ...page, current: base },
        <Notice kind="error">{answer ? ledgerError(answer).message : tr('app.company.noSuchBank')}</Notice>,
      );
    }
    const bank = answer.body as BankAccount;
    await renderPage(
      ctx,
      status,
      { title: tr('app.company.bankTitle', { name: bank.name }), ...page, current: base },
      <>
        {top}
        <p>
          <a href={base}>{tr('app.company.back')}</a>
        </p>
        {roleHas(page.company.role, 'bank.manage_accounts') ? (
          <form method="post" action={`${base}/bank-accounts/${bank.id}`} id="bank-account">
            <Csrf token={page.csrf} />
            <BankInputs values={bank} refused={refused} />
            <p class="hint">{tr('app.company.emptyRemoved')}</p>
            <p>
              <button type="submit">{tr('app.company.saveBank')}</button>
            </p>
          </form>
        ) : (
          <p class="hint">{tr('app.company.banksByManagers')}</p>
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
    const f = bodyFields(ctx);
    const answer = await page.call('POST', `/bank/accounts/${id}`, bankFields(f));
    if (answer.status === 404) return showBank(ctx, page, id, 404, null);
    if (answer.status !== 200) {
      return showBank(
        ctx,
        page,
        id,
        answer.status >= 500 ? 502 : answer.status,
        <Notice kind="error" id="refusal">
          {ledgerError(answer).message} {tr('app.company.nothingChanged')}
        </Notice>,
        refusedForm(f, answer),
      );
    }
    seeOther(ctx, `${ENTRY.path(page.company.dataset)}?notice=bankSaved`);
  });
}
