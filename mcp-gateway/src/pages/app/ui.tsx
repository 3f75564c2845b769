/**
 * The app's shared layout, navigation and small parts, in hono's JSX (rendered to a string on
 * the server; every interpolated value is escaped). Pages answer with `renderPage`, which also
 * sets the headers every page gets: not frameable, not cached, a Content-Security-Policy that
 * allows the app's own stylesheet and script only. Every text is the catalogue's, in the page's
 * language (`tr`, language.ts); dates, times and amounts are written the Swiss way in every language.
 */
import type { Child } from 'hono/jsx';
import type { Context } from 'koa';
import {
  formatDate,
  formatDateTime,
  isRole,
  type MessageKey,
  roleHas,
  type Permission,
  type Role,
} from '@ledger/shared';
import { Document, sendDocument } from '../../http/page.tsx';
import { pageLanguage, tr } from './language.ts';

/**
 * The pages' policy: the shared one plus forms that only post to the gateway itself, and the
 * script's requests (the invoice form's totals as one types) to the gateway only.
 */
export const APP_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; frame-src 'self'; connect-src " +
  "'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface Person {
  id: number;
  name: string;
  email: string;
}

/** The company the page is about and the person's role in it (absent on `/` and account pages). */
export interface CompanyContext {
  dataset: string;
  name: string;
  role: Role;
}

export interface PageProps {
  title: string;
  person: Person;
  csrf: string;
  company?: CompanyContext;
  /** the path of the page, to mark its navigation entry */
  current: string;
}

/** The company pages of the navigation, by the key pages find their entry with (`navEntry`). */
export type PageKey =
  | 'workstation'
  | 'inbox'
  | 'parties'
  | 'invoices'
  | 'bills'
  | 'entries'
  | 'bank'
  | 'accounts'
  | 'audit'
  | 'reports'
  | 'vat'
  | 'quotes'
  | 'recurring'
  | 'dunning'
  | 'assets'
  | 'revaluation'
  | 'closing'
  | 'apiKeys'
  | 'members'
  | 'company'
  | 'aiConnections';

interface NavEntry {
  key: PageKey;
  /** the catalogue key of the entry's label (`tr(label)`) */
  label: MessageKey;
  path: (dataset: string) => string;
  /** who sees the entry (and may open the page) */
  allowed: (role: Role) => boolean;
}

const may = (permission: Permission) => (role: Role) => roleHas(role, permission);
export const isManager = (role: Role) => role === 'owner' || role === 'admin';

/**
 * The company's pages by group, each with who may open it. The same predicates guard the
 * routes (`NAV_RULES`), so a page the navigation hides answers 403.
 */
export const NAV: { group: MessageKey; entries: NavEntry[] }[] = [
  {
    group: 'app.nav.books',
    entries: [
      // the workstation stays first: other pages link to its drafts through NAV[0].entries[0]
      {
        key: 'workstation',
        label: 'app.nav.workstation',
        path: (d) => `/books/${d}/workstation`,
        allowed: may('workstation.workstation'),
      },
      { key: 'inbox', label: 'app.nav.inbox', path: (d) => `/books/${d}/inbox`, allowed: may('documents.documents') },
      {
        key: 'parties',
        label: 'app.nav.parties',
        path: (d) => `/books/${d}/parties`,
        allowed: (role) => may('customers.customers')(role) || may('vendors.vendors')(role),
      },
      {
        key: 'invoices',
        label: 'app.nav.invoices',
        path: (d) => `/books/${d}/invoices`,
        allowed: may('customers.reports.transactions'),
      },
      {
        key: 'bills',
        label: 'app.nav.bills',
        path: (d) => `/books/${d}/bills`,
        allowed: may('vendors.reports.transactions'),
      },
      { key: 'bank', label: 'app.nav.bank', path: (d) => `/books/${d}/bank`, allowed: may('bank.bank_accounts') },
      {
        key: 'entries',
        label: 'app.nav.entries',
        path: (d) => `/books/${d}/entries`,
        allowed: may('gl.journal_entries'),
      },
      {
        key: 'accounts',
        label: 'app.nav.accounts',
        path: (d) => `/books/${d}/accounts`,
        allowed: may('system.chart_of_accounts'),
      },
      { key: 'reports', label: 'app.nav.reports', path: (d) => `/books/${d}/reports`, allowed: may('reports.reports') },
      { key: 'vat', label: 'app.nav.vat', path: (d) => `/books/${d}/vat`, allowed: may('reports.reports') },
      {
        key: 'quotes',
        label: 'app.nav.quotes',
        path: (d) => `/books/${d}/quotes`,
        allowed: may('customers.reports.transactions'),
      },
      {
        key: 'recurring',
        label: 'app.nav.recurring',
        path: (d) => `/books/${d}/recurring`,
        allowed: may('customers.reports.transactions'),
      },
      {
        key: 'dunning',
        label: 'app.nav.dunning',
        path: (d) => `/books/${d}/dunning`,
        allowed: may('customers.postings.receipt'),
      },
      { key: 'assets', label: 'app.nav.assets', path: (d) => `/books/${d}/assets`, allowed: may('gl.journal_entries') },
      {
        key: 'revaluation',
        label: 'app.nav.revaluation',
        path: (d) => `/books/${d}/revaluation`,
        allowed: may('gl.add_journal_entry'),
      },
      {
        key: 'closing',
        label: 'app.nav.closing',
        path: (d) => `/books/${d}/closing`,
        allowed: may('system.fiscal_years'),
      },
    ],
  },
  {
    group: 'app.nav.management',
    entries: [
      {
        key: 'apiKeys',
        label: 'app.nav.apiKeys',
        path: (d) => `/management/${d}/api-keys`,
        allowed: may('system.management.api_keys'),
      },
      {
        key: 'members',
        label: 'app.nav.members',
        path: (d) => `/management/${d}/members`,
        allowed: may('system.management.members'),
      },
      // every member reads the settings; the forms are for owners and admins (system.company)
      { key: 'company', label: 'app.nav.company', path: (d) => `/management/${d}/company`, allowed: () => true },
      {
        key: 'aiConnections',
        label: 'app.nav.aiConnections',
        path: (d) => `/management/${d}/ai-connections`,
        allowed: may('system.management.ai_connections'),
      },
      {
        key: 'audit',
        label: 'app.nav.audit',
        path: (d) => `/management/${d}/audit`,
        allowed: may('system.audit_log'),
      },
    ],
  },
];

/** The navigation entry of a page. */
export function navEntry(key: PageKey): NavEntry {
  return NAV.flatMap((g) => g.entries).find((e) => e.key === key)!;
}

/** A document's status (draft, posted) as the page's language names it; others as they are. */
export const statusName = (status: string): string =>
  status === 'draft' || status === 'posted' ? tr(`app.status.${status}`) : status;

/** A role as the page's language names it. */
export const roleName = (role: string): string => (isRole(role) ? tr(`app.role.${role}`) : role);

/** Amounts the Swiss way: apostrophe thousands separator, two decimals (`1'234.50`, `-80.00`). */
export function swissAmount(value: string | number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || value === '') return '';
  const text = typeof value === 'number' ? value.toFixed(decimals) : value.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return text;
  const [, sign, whole, fraction = ''] = m;
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, "'");
  const frac = fraction.length >= decimals ? fraction : fraction.padEnd(decimals, '0');
  return `${sign}${grouped}${frac ? `.${frac}` : ''}`;
}

/** A timestamp as Zurich's wall clock, `28.11.2026, 14:05` (every language of the app writes it so). */
export function when(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  return formatDateTime(typeof value === 'number' ? new Date(value) : value);
}

/** A date (`2026-11-28`) as `28.11.2026`; empty for none. */
export const day = (value: string | null | undefined): string => (value ? formatDate(value) : '');

export const Csrf = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

export function Notice({ kind, children, id }: { kind: 'ok' | 'warn' | 'error'; children?: Child; id?: string }) {
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'} id={id}>
      {children}
    </div>
  );
}

/** A table's column: a plain heading, or `numeric('Amount')` for a right-aligned column of numbers. */
export type Column = string | { numeric: string };
export const numeric = (label: string): Column => ({ numeric: label });

/** A table's heading row, one `<th scope="col">` per column (numbers in class `num`, aligned with their cells). */
export function ColumnHeads({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <th scope="col">{c}</th>
          ) : (
            <th scope="col" class="num">
              {c.numeric}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

function Navigation({ person, csrf, company, current }: PageProps) {
  const groups = company
    ? NAV.map((g) => ({ group: tr(g.group), entries: g.entries.filter((e) => e.allowed(company.role)) })).filter(
        (g) => g.entries.length > 0,
      )
    : [];
  const link = (href: string, label: string) => (
    <li>
      <a href={href} aria-current={href === current ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <>
      <header class="top">
        <a class="brand" href="/">
          Ledger
        </a>
        {company ? (
          <span id="current-company">
            {company.name} · {roleName(company.role)}
          </span>
        ) : null}
        <form method="post" action="/signout" class="inline">
          <Csrf token={csrf} />
          <button type="submit" class="secondary">
            {tr('app.signOut', { email: person.email })}
          </button>
        </form>
      </header>
      <nav class="app" aria-label={tr('app.nav.main')}>
        <ul>
          {link('/', tr('app.nav.companies'))}
          {groups.map((g) => (
            <>
              <li class="group" aria-hidden="true">
                {g.group}
              </li>
              {g.entries.map((e) => link(e.path(company!.dataset), tr(e.label)))}
            </>
          ))}
          {link('/account/profile', tr('app.nav.profile'))}
          {link('/account/ai-connections', tr('app.nav.accountAiConnections'))}
        </ul>
      </nav>
    </>
  );
}

/** Sends a whole page: layout, navigation, `body` under the title's heading. */
export async function renderPage(ctx: Context, status: number, props: PageProps, body: Child): Promise<void> {
  const page = (
    <Document
      title={props.company ? `${props.title} · ${props.company.name}` : props.title}
      heading={props.title}
      lang={pageLanguage()}
      skipText={tr('app.skip')}
      script
      top={<Navigation {...props} />}
    >
      {body}
    </Document>
  );
  sendDocument(ctx, status, page, APP_CSP);
}

/** Sends a page whose body is only an error notice (no such draft, file or account; a refused download). */
export function renderErrorPage(ctx: Context, status: number, props: PageProps, message: Child): Promise<void> {
  return renderPage(ctx, status, props, <Notice kind="error">{message}</Notice>);
}

/**
 * A form the ledger (or the page) refused: what was typed, shown again in its fields, and the
 * message, shown at the field it is about (`field`: the form's input name) as well as above the form.
 * A form shown again as typed without a refusal (a row added, the totals previewed) has an empty
 * message and no field.
 */
export interface Refused {
  values: Readonly<Record<string, unknown>>;
  message: string;
  field?: string;
}

/**
 * The form's input a ledger error's `field` is about: `iban` → `iban`, `lines[1].account`,
 * `lines.1.account` or the pointer `/items/1/account` → `account_1` (the forms name a row's
 * inputs `{field}_{row}`).
 */
export function formField(ledgerField: string | undefined): string | undefined {
  if (!ledgerField) return undefined;
  const row = /^\/?(?:lines|items)(?:\[(\d+)\]|[./](\d+))[./](\w+)$/.exec(ledgerField);
  return row ? `${row[3]}_${row[1] ?? row[2]}` : ledgerField.replace(/^\//, '');
}

/** What a refused form had in `name`, else `stored` (the value the page would show anyway). */
export function shown(refused: Refused | undefined, name: string, stored: string | undefined): string {
  const typed = refused?.values[name];
  return typed === undefined ? (stored ?? '') : String(typed);
}

export interface FieldProps {
  id: string;
  name: string;
  label: string;
  value?: string;
  required?: boolean;
  /** a decimal keyboard on phones (amounts) */
  decimal?: boolean;
  type?: 'text' | 'email' | 'date';
  placeholder?: string;
  maxlength?: number;
  /** the id of a `<datalist>` to pick from (`AccountList`: the chart's accounts, number and name) */
  list?: string;
  /** the refusal, when it is about this field: its message is shown under the input */
  refused?: Refused;
  /** the focus starts here (a row just added) */
  autofocus?: boolean;
}

/** The refusal's message when it is about the input named `name`. */
const refusalAt = (p: { name: string; refused?: Refused }) =>
  p.refused && formField(p.refused.field) === p.name ? p.refused.message : undefined;

/** An input's attributes pointing at its refusal's message, when there is one. */
const errorAria = (id: string, error: string | undefined) =>
  error ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${id}-error` } : {};

/** A refusal's message under its input (the id errorAria points at). */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

/** A labelled input that carries a refusal's message about it (`aria-invalid`, `aria-describedby`). */
export function Field(p: FieldProps) {
  const error = refusalAt(p);
  return (
    <>
      <label for={p.id}>{p.label}</label>
      <input
        type={p.type ?? 'text'}
        id={p.id}
        name={p.name}
        value={p.value ?? ''}
        required={p.required}
        inputmode={p.decimal ? 'decimal' : undefined}
        placeholder={p.placeholder}
        maxlength={p.maxlength}
        list={p.list}
        autocomplete={p.list ? 'off' : undefined}
        autofocus={p.autofocus}
        {...errorAria(p.id, error)}
      />
      <FieldError id={p.id} error={error} />
    </>
  );
}

/** How many rows a form of lines or items offers at first (empty rows are left out). */
export const FIRST_ROWS = 4;
/** The most rows a form holds: far more than a document has, few enough for one page. */
export const MAX_ROWS = 200;

/** The rows a posted form had (its hidden `rows`), within 1 and MAX_ROWS; FIRST_ROWS when it says nothing. */
export function formRows(values: Readonly<Record<string, unknown>> | undefined): number {
  const n = Number(values?.rows);
  return Number.isInteger(n) && n > 0 ? Math.min(n, MAX_ROWS) : FIRST_ROWS;
}

/**
 * The values of a form to show again with one row more (its **Add a row** button, `action=add-row`),
 * and the row to put the focus in. Nothing is sent to the ledger.
 */
export function withRowAdded(values: Readonly<Record<string, unknown>>): { refused: Refused; focusRow: number } {
  const rows = Math.min(formRows(values) + 1, MAX_ROWS);
  return { refused: { values: { ...values, rows: String(rows) }, message: '' }, focusRow: rows - 1 };
}

/** The form's row count (hidden `rows`) is written by the form itself; this button asks for one more. */
export function AddRow({ rows }: { rows: number }) {
  return (
    <>
      <input type="hidden" name="rows" value={String(rows)} />
      {rows < MAX_ROWS ? (
        <p>
          <button type="submit" name="action" value="add-row" class="secondary" id="add-row">
            {tr('app.form.addRow')}
          </button>
        </p>
      ) : null}
    </>
  );
}

/**
 * One input of a form's row `i` (the forms name a row's inputs `{name}_{i}` and give them the id
 * `{prefix}-{i}`): a Field showing what was typed, else `value`.
 */
export function RowField(
  p: Omit<FieldProps, 'id' | 'name' | 'value'> & { prefix: string; name: string; i: number; value?: string },
) {
  const { prefix, name, i, value, ...rest } = p;
  return (
    <Field {...rest} id={`${prefix}-${i}`} name={`${name}_${i}`} value={shown(p.refused, `${name}_${i}`, value)} />
  );
}

export interface SelectProps {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string; lang?: string }[];
  /** the first option, meaning "none" (value "") */
  empty?: string;
  required?: boolean;
  refused?: Refused;
  autofocus?: boolean;
}

/** A labelled choice that carries a refusal's message about it, as Field does. */
export function Select(p: SelectProps) {
  const error = refusalAt(p);
  return (
    <>
      <label for={p.id}>{p.label}</label>
      <select id={p.id} name={p.name} required={p.required} autofocus={p.autofocus} {...errorAria(p.id, error)}>
        {p.empty !== undefined ? <option value="">{p.empty}</option> : null}
        {p.options.map((o) => (
          <option value={o.value} lang={o.lang} selected={o.value === p.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={p.id} error={error} />
    </>
  );
}

/** An account of the chart as the pickers show it. */
export interface ChartAccount {
  accno: string;
  description: string;
}

/** The id of the page's account list (`Field`'s `list`). */
export const ACCOUNT_LIST = 'chart-accounts';

/**
 * The chart's accounts to pick from in every account field of the page: typing a number or a
 * word of the name offers `6500 · Büromaterial`; the field keeps the number the ledger takes.
 */
export function AccountList({ accounts }: { accounts: readonly ChartAccount[] }) {
  return (
    <datalist id={ACCOUNT_LIST}>
      {accounts.map((a) => (
        <option value={a.accno}>{`${a.accno} · ${a.description}`}</option>
      ))}
    </datalist>
  );
}

/** `6500 Büromaterial` for an account number the chart knows, else the number alone. */
export function accountName(accounts: readonly ChartAccount[], accno: string | undefined): string {
  if (!accno) return '';
  const found = accounts.find((a) => a.accno === accno);
  return found ? `${found.accno} ${found.description}` : accno;
}
