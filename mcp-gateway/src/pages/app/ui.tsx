/**
 * The app's shared layout, navigation and small parts, in hono's JSX (rendered to a string on
 * the server; every interpolated value is escaped). Pages answer with `renderPage`, which also
 * sets the headers every page gets: not frameable, not cached, a Content-Security-Policy that
 * allows the app's own stylesheet and script only.
 */
import type { Child } from 'hono/jsx';
import type { Context } from 'koa';
import { roleHas, type Permission, type Role } from '@ledger/shared';
import { Document, sendDocument } from '../../http/page.tsx';

/** The pages' policy: the shared one plus forms that only post to the gateway itself. */
export const APP_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; frame-src 'self'; form-action " +
  "'self'; frame-ancestors 'none'; base-uri 'none'";

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

interface NavEntry {
  label: string;
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
export const NAV: { group: string; entries: NavEntry[] }[] = [
  {
    group: 'Books',
    entries: [
      // the workstation stays first: other pages link to its drafts through NAV[0].entries[0]
      { label: 'Workstation', path: (d) => `/books/${d}/workstation`, allowed: may('workstation.workstation') },
      { label: 'Inbox', path: (d) => `/books/${d}/inbox`, allowed: may('documents.documents') },
      { label: 'Reports', path: (d) => `/books/${d}/reports`, allowed: may('reports.reports') },
      { label: 'Fixed assets', path: (d) => `/books/${d}/assets`, allowed: may('gl.journal_entries') },
      { label: 'Revaluation', path: (d) => `/books/${d}/revaluation`, allowed: may('gl.add_journal_entry') },
    ],
  },
  {
    group: 'System → Management',
    entries: [
      { label: 'API Keys', path: (d) => `/management/${d}/api-keys`, allowed: may('system.management.api_keys') },
      { label: 'Members', path: (d) => `/management/${d}/members`, allowed: may('system.management.members') },
      // every member reads the settings; the forms are for owners and admins (system.company)
      { label: 'Company', path: (d) => `/management/${d}/company`, allowed: () => true },
      {
        label: 'AI connections',
        path: (d) => `/management/${d}/ai-connections`,
        allowed: may('system.management.ai_connections'),
      },
    ],
  },
];

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

/** A timestamp as `yyyy-mm-dd hh:mm UTC` (the app's pages are language-neutral). */
export function when(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

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
    ? NAV.map((g) => ({ group: g.group, entries: g.entries.filter((e) => e.allowed(company.role)) })).filter(
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
            {company.name} · {company.role}
          </span>
        ) : null}
        <form method="post" action="/signout" class="inline">
          <Csrf token={csrf} />
          <button type="submit" class="secondary">
            Sign out {person.email}
          </button>
        </form>
      </header>
      <nav class="app" aria-label="Main">
        <ul>
          {link('/', 'Companies')}
          {groups.map((g) => (
            <>
              <li class="group" aria-hidden="true">
                {g.group}
              </li>
              {g.entries.map((e) => link(e.path(company!.dataset), e.label))}
            </>
          ))}
          {link('/account/ai-connections', 'My Profile → AI connections')}
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
