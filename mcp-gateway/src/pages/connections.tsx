/**
 * "My Profile → AI connections" (the person's own connections) and
 * "System → Management → AI connections" (owners/admins: all of a company's connections,
 * disconnect any, switch AI connections on or off): pages of the app, in its layout and
 * navigation (app/ui.tsx), in hono JSX.
 */
import Router from '@koa/router';
import type { Child } from 'hono/jsx';
import type { Context } from 'koa';
import { isDatasetName, isRole } from '@ledger/shared';
import type { GatewayDeps } from '../deps.ts';
import { bodyFields, parseBody } from '../http/bodyParser.ts';
import { errorBoundary, pageErrors } from '../http/errors.ts';
import { LedgerForbiddenError } from '../ledgerClient.ts';
import { END_REASON_TEXT, RECENTLY_ENDED, type ConnectionRow } from '../oauth/connections.ts';
import { scopeText } from '../oauth/consentPage.tsx';
import { signInUrl, type SessionUser } from '../oauth/session.ts';
import { seeOther } from './app/access.tsx';
import { ColumnHeads, Csrf, Notice, renderPage, type CompanyContext } from './app/ui.tsx';

function when(msValue: number): string {
  return `${new Date(msValue).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function ClientCell({ c }: { c: ConnectionRow }) {
  return (
    <>
      {c.client_name}
      <br />
      <small>{c.verified_host ? `Verified domain: ${c.verified_host}` : 'Unverified app'}</small>
    </>
  );
}

/** A column of a table of connections: its heading and what a connection's row shows under it. */
interface ConnectionColumn {
  heading: string;
  cell(c: ConnectionRow): Child;
}

const APP_COLUMN: ConnectionColumn = { heading: 'App', cell: (c) => <ClientCell c={c} /> };

/**
 * The active connections: the `first` columns (who, which app), then the access, when connected and last used, and
 * the form that disconnects it; `empty` is said instead when there are none.
 */
function ActiveTable(props: {
  caption: string;
  empty: string;
  rows: ConnectionRow[];
  first: ConnectionColumn[];
  disconnect(c: ConnectionRow): Child;
}) {
  if (props.rows.length === 0) return <p id="no-connections">{props.empty}</p>;
  return (
    <table id="connections">
      <caption>{props.caption}</caption>
      <ColumnHeads columns={[...props.first.map((col) => col.heading), 'Access', 'Connected', 'Last used', 'Action']} />
      <tbody>
        {props.rows.map((c) => (
          <tr data-connection={c.id}>
            {props.first.map((col) => (
              <td>{col.cell(c)}</td>
            ))}
            <td>{scopeText(c.scopes)}</td>
            <td>{when(c.created_at)}</td>
            <td>{when(c.last_used_at)}</td>
            <td>{props.disconnect(c)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function whyEnded(c: ConnectionRow): string {
  const text = END_REASON_TEXT[c.end_reason ?? 'revoked'];
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The connections that ended lately, each with why (replaced when the app was connected
 * again, disconnected, switched off…); `who` is the first column (company or person).
 */
function EndedSection({
  rows,
  who,
}: {
  rows: ConnectionRow[];
  who: { heading: string; cell(c: ConnectionRow): Child };
}) {
  if (rows.length === 0) return null;
  return (
    <>
      <h2>Recently ended</h2>
      <table id="ended-connections">
        <caption>
          Connections that ended in the last {RECENTLY_ENDED.days} days (at most {RECENTLY_ENDED.rows}); their tokens no
          longer work
        </caption>
        <ColumnHeads columns={[who.heading, 'App', 'Access', 'Connected', 'Ended', 'Why']} />
        <tbody>
          {rows.map((c) => (
            <tr data-ended-connection={c.id} data-end-reason={c.end_reason ?? ''}>
              <td>{who.cell(c)}</td>
              <td>
                <ClientCell c={c} />
              </td>
              <td>{scopeText(c.scopes)}</td>
              <td>{when(c.created_at)}</td>
              <td>{c.ended_at === null ? '' : when(c.ended_at)}</td>
              <td>{whyEnded(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const NOTICES: Record<string, string> = {
  disconnected: 'The connection has ended. Its tokens no longer work.',
  on: 'AI connections are switched on.',
  off: "AI connections are switched off; all of the company's connections have ended.",
};

function notice(ctx: Context): Child {
  const text = NOTICES[String(ctx.query.notice ?? '')];
  return text ? <Notice kind="ok">{text}</Notice> : null;
}

const ID_PARAM = /^[0-9a-f-]{36}$/;

export function connectionsRouter(deps: GatewayDeps): Router {
  const router = new Router();
  router.use(errorBoundary(pageErrors, deps.log), parseBody);
  const { sessions, connections, ledger } = deps;

  /** A page of the app for the signed-in person (its navigation, a fresh sign-out form). */
  function page(ctx: Context, status: number, user: SessionUser, title: string, body: Child, company?: CompanyContext) {
    const csrf = sessions.csrfToken(ctx);
    return renderPage(ctx, status, { title, person: user, csrf, company, current: ctx.path }, body);
  }

  /** An error page for the signed-in person (with the navigation and a fresh sign-out form). */
  function personError(ctx: Context, user: SessionUser, status: number, title: string, message: string) {
    return page(
      ctx,
      status,
      user,
      title,
      <div class="notice error" role="alert">
        <p>{message}</p>
      </div>,
    );
  }

  async function requireUser(ctx: Context): Promise<SessionUser | undefined> {
    const user = await sessions.user(ctx);
    if (!user) seeOther(ctx, signInUrl(ctx.method === 'GET' ? ctx.url : '/account/ai-connections'));
    return user;
  }

  /** For POSTs: signed in and a valid CSRF token, else an answer has been sent. */
  async function requirePost(ctx: Context): Promise<SessionUser | undefined> {
    const user = await requireUser(ctx);
    if (!user) return undefined;
    if (!sessions.checkCsrf(ctx, bodyFields(ctx).csrf)) {
      await personError(
        ctx,
        user,
        403,
        'The form has expired',
        'The form could not be verified (CSRF check failed). Reload the page and try again.',
      );
      return undefined;
    }
    return user;
  }

  function disconnectForm(action: string, csrf: string, label: string): Child {
    return (
      <form method="post" action={action}>
        <Csrf token={csrf} />
        <button type="submit" class="danger" aria-label={label}>
          Disconnect
        </button>
      </form>
    );
  }

  router.get('/account/ai-connections', async (ctx) => {
    const user = await requireUser(ctx);
    if (!user) return;
    const csrf = sessions.csrfToken(ctx);
    const [rows, ended, memberships] = await Promise.all([
      connections.listForUser(user.id),
      connections.recentlyEndedForUser(user.id),
      ledger.memberships(user.id),
    ]);
    const names = new Map(memberships.map((m) => [m.dataset, m.name]));
    const company = (c: ConnectionRow) => names.get(c.dataset) ?? c.dataset;
    const table = (
      <ActiveTable
        caption="Your active AI connections"
        empty="You have no active AI connections."
        rows={rows}
        first={[APP_COLUMN, { heading: 'Company', cell: company }]}
        disconnect={(c) =>
          disconnectForm(
            `/account/ai-connections/${c.id}/disconnect`,
            csrf,
            `Disconnect ${c.client_name} from ${company(c)}`,
          )
        }
      />
    );
    await page(
      ctx,
      200,
      user,
      'My Profile → AI connections',
      <>
        {notice(ctx)}
        <p>
          Assistants you have connected to your companies. Disconnecting ends a connection at once; connecting again
          needs your consent again. An app has one connection per company: connecting it again (for example with more
          access) replaces the earlier one.
        </p>
        {table}
        <EndedSection rows={ended} who={{ heading: 'Company', cell: company }} />
      </>,
    );
  });

  router.post('/account/ai-connections/:id/disconnect', async (ctx) => {
    const user = await requirePost(ctx);
    if (!user) return;
    const id = String(ctx.params.id);
    const c = ID_PARAM.test(id) ? await connections.get(id) : undefined;
    if (!c || c.user_id !== user.id)
      return await personError(ctx, user, 404, 'Not found', 'No such connection of yours.');
    await connections.end(c.id, 'disconnected_by_person');
    deps.log.info({ conn: c.id, user: user.id }, 'connection disconnected by the person');
    ctx.status = 303;
    ctx.redirect('/account/ai-connections?notice=disconnected');
  });

  router.get('/management/ai-connections', async (ctx) => {
    const user = await requireUser(ctx);
    if (!user) return;
    const managed = (await ledger.memberships(user.id)).filter((m) => m.may_connect_assistants);
    if (managed.length === 1) {
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect(`/management/${managed[0]!.dataset}/ai-connections`);
    }
    const body = managed.length ? (
      <>
        <p>Choose a company:</p>
        <ul>
          {managed.map((m) => (
            <li>
              <a href={`/management/${m.dataset}/ai-connections`}>{m.name}</a>
            </li>
          ))}
        </ul>
      </>
    ) : (
      <p id="not-manager">
        Only owners and admins manage AI connections, and you are not owner or admin of any company.
      </p>
    );
    await page(ctx, managed.length ? 200 : 403, user, 'System → Management → AI connections', body);
  });

  /**
   * The signed-in person (`signedIn`: requireUser, or requirePost for forms) and the company
   * of the path when they are an active owner/admin there; else an answer has been sent.
   */
  async function managing(ctx: Context, signedIn: (ctx: Context) => Promise<SessionUser | undefined>) {
    const user = await signedIn(ctx);
    if (!user) return undefined;
    const dataset = String(ctx.params.dataset);
    const member = isDatasetName(dataset) ? await ledger.member(dataset, user.id) : undefined;
    if (!member?.may_connect_assistants || !member.role || !isRole(member.role)) {
      await personError(
        ctx,
        user,
        403,
        'System → Management → AI connections',
        'Only owners and admins of this company manage its AI connections.',
      );
      return undefined;
    }
    return { user, company: member.company, role: member.role };
  }

  router.get('/management/:dataset/ai-connections', async (ctx) => {
    const managed = await managing(ctx, requireUser);
    if (!managed) return;
    const { user, company, role } = managed;
    const csrf = sessions.csrfToken(ctx);
    const [rows, endedRows] = await Promise.all([
      connections.listForDataset(company.dataset),
      connections.recentlyEndedForDataset(company.dataset),
    ]);
    const on = company.ai_connections_enabled;
    const base = `/management/${company.dataset}/ai-connections`;
    const person = (c: ConnectionRow) => (
      <>
        {c.user_name}
        <br />
        <small>{c.user_email}</small>
      </>
    );
    const switchForm = (
      <section aria-labelledby="switch-heading">
        <h2 id="switch-heading">AI connections for {company.name}</h2>
        <p id="switch-state">
          AI connections are <strong>{on ? 'on' : 'off'}</strong>.{' '}
          {on
            ? 'Owners and admins can connect AI assistants to this company.'
            : 'No assistant can connect to this company.'}
        </p>
        <form method="post" action={`${base}/switch`}>
          <Csrf token={csrf} />
          <input type="hidden" name="enabled" value={on ? 'off' : 'on'} />
          <button type="submit" id="switch" class={on ? 'danger' : ''}>
            {on ? 'Switch AI connections off' : 'Switch AI connections on'}
          </button>
          {on ? (
            <p>
              <small>Switching off ends all connections of this company at once.</small>
            </p>
          ) : null}
        </form>
      </section>
    );
    const table = (
      <ActiveTable
        caption={`Active AI connections of ${company.name}`}
        empty="There are no active AI connections."
        rows={rows}
        first={[{ heading: 'Person', cell: person }, APP_COLUMN]}
        disconnect={(c) =>
          disconnectForm(`${base}/${c.id}/disconnect`, csrf, `Disconnect ${c.client_name} of ${c.user_email}`)
        }
      />
    );
    await page(
      ctx,
      200,
      user,
      'System → Management → AI connections',
      <>
        {notice(ctx)}
        {switchForm}
        <h2>Connections</h2>
        {table}
        <EndedSection rows={endedRows} who={{ heading: 'Person', cell: person }} />
      </>,
      { dataset: company.dataset, name: company.name, role },
    );
  });

  router.post('/management/:dataset/ai-connections/switch', async (ctx) => {
    const managed = await managing(ctx, requirePost);
    if (!managed) return;
    const { user, company } = managed;
    const value = bodyFields(ctx).enabled;
    if (value !== 'on' && value !== 'off')
      return await personError(ctx, user, 400, 'Invalid choice', 'enabled must be on or off.');
    try {
      await ledger.setAiConnections(company.dataset, user.id, value === 'on');
    } catch (err) {
      if (err instanceof LedgerForbiddenError) return await personError(ctx, user, 403, 'Not allowed', err.message);
      throw err;
    }
    if (value === 'off') {
      const n = await connections.endAllForDataset(company.dataset, 'ai_connections_off');
      deps.log.info({ dataset: company.dataset, user: user.id, ended: n }, 'AI connections switched off');
    }
    ctx.status = 303;
    ctx.redirect(`/management/${company.dataset}/ai-connections?notice=${value}`);
  });

  router.post('/management/:dataset/ai-connections/:id/disconnect', async (ctx) => {
    const managed = await managing(ctx, requirePost);
    if (!managed) return;
    const { user, company } = managed;
    const id = String(ctx.params.id);
    const c = ID_PARAM.test(id) ? await connections.get(id) : undefined;
    if (!c || c.dataset !== company.dataset)
      return await personError(ctx, user, 404, 'Not found', 'No such connection in this company.');
    await connections.end(c.id, c.user_id === user.id ? 'disconnected_by_person' : 'disconnected_by_admin');
    deps.log.info({ conn: c.id, user: user.id }, 'connection disconnected under management');
    ctx.status = 303;
    ctx.redirect(`/management/${company.dataset}/ai-connections?notice=disconnected`);
  });

  return router;
}
