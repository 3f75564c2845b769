/**
 * "My Profile → AI connections" (the person's own connections) and
 * "System → Management → AI connections" (owners/admins: all of a company's connections,
 * disconnect any, switch AI connections on or off): pages of the app, in its layout and
 * navigation (app/ui.tsx), in hono JSX, in the person's language (app/language.ts). The tables sit
 * in a scrolling wrapper, so the pages stay readable at 375 px.
 */
import Router from '@koa/router';
import type { Child } from 'hono/jsx';
import type { Context } from 'koa';
import { isDatasetName, isRole } from '@ledger/shared';
import type { GatewayDeps } from '../deps.ts';
import { bodyFields, parseBody } from '../http/bodyParser.ts';
import { errorBoundary, pageErrors } from '../http/errors.ts';
import { LedgerForbiddenError } from '../ledgerClient.ts';
import { RECENTLY_ENDED, type ConnectionRow } from '../oauth/connections.ts';
import { scopeText } from '../oauth/consentPage.tsx';
import { signInUrl, type SessionUser } from '../oauth/session.ts';
import { seeOther } from './app/access.tsx';
import { inPageLanguage, tr } from './app/language.ts';
import { ColumnHeads, Csrf, Notice, renderPage, type CompanyContext, when } from './app/ui.tsx';

function ClientCell({ c }: { c: ConnectionRow }) {
  return (
    <>
      {c.client_name}
      <br />
      <small>{c.verified_host ? tr('app.ai.verified', { host: c.verified_host }) : tr('app.ai.unverified')}</small>
    </>
  );
}

/** A column of a table of connections: its heading and what a connection's row shows under it. */
interface ConnectionColumn {
  heading: string;
  cell(c: ConnectionRow): Child;
}

const appColumn = (): ConnectionColumn => ({ heading: tr('app.ai.app'), cell: (c) => <ClientCell c={c} /> });

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
    <div class="table-wrap">
      <table id="connections">
        <caption>{props.caption}</caption>
        <ColumnHeads
          columns={[
            ...props.first.map((col) => col.heading),
            tr('app.ai.access'),
            tr('app.ai.connected'),
            tr('app.apiKeys.lastUsed'),
            tr('app.apiKeys.action'),
          ]}
        />
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
    </div>
  );
}

function whyEnded(c: ConnectionRow): string {
  return tr(`app.ai.end.${c.end_reason ?? 'revoked'}`);
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
      <h2>{tr('app.ai.recentlyEnded')}</h2>
      <div class="table-wrap">
        <table id="ended-connections">
          <caption>{tr('app.ai.endedCaption', { days: RECENTLY_ENDED.days, rows: RECENTLY_ENDED.rows })}</caption>
          <ColumnHeads
            columns={[
              who.heading,
              tr('app.ai.app'),
              tr('app.ai.access'),
              tr('app.ai.connected'),
              tr('app.ai.ended'),
              tr('app.ai.why'),
            ]}
          />
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
      </div>
    </>
  );
}

function notice(ctx: Context): Child {
  const asked = String(ctx.query.notice ?? '');
  return asked === 'disconnected' || asked === 'on' || asked === 'off' ? (
    <Notice kind="ok">{tr(`app.ai.notice.${asked}`)}</Notice>
  ) : null;
}

const ID_PARAM = /^[0-9a-f-]{36}$/;

export function connectionsRouter(deps: GatewayDeps): Router {
  const router = new Router();
  router.use(errorBoundary(pageErrors, deps.log), parseBody, inPageLanguage(deps));
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
      await personError(ctx, user, 403, tr('app.access.expiredTitle'), tr('app.access.expired'));
      return undefined;
    }
    return user;
  }

  function disconnectForm(action: string, csrf: string, label: string): Child {
    return (
      <form method="post" action={action}>
        <Csrf token={csrf} />
        <button type="submit" class="danger" aria-label={label}>
          {tr('app.ai.disconnect')}
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
        caption={tr('app.ai.yourCaption')}
        empty={tr('app.ai.yourNone')}
        rows={rows}
        first={[appColumn(), { heading: tr('app.ai.company'), cell: company }]}
        disconnect={(c) =>
          disconnectForm(
            `/account/ai-connections/${c.id}/disconnect`,
            csrf,
            tr('app.ai.disconnectFrom', { app: c.client_name, company: company(c) }),
          )
        }
      />
    );
    await page(
      ctx,
      200,
      user,
      tr('app.nav.accountAiConnections'),
      <>
        {notice(ctx)}
        <p>{tr('app.ai.yourHint')}</p>
        {table}
        <EndedSection rows={ended} who={{ heading: tr('app.ai.company'), cell: company }} />
      </>,
    );
  });

  router.post('/account/ai-connections/:id/disconnect', async (ctx) => {
    const user = await requirePost(ctx);
    if (!user) return;
    const id = String(ctx.params.id);
    const c = ID_PARAM.test(id) ? await connections.get(id) : undefined;
    if (!c || c.user_id !== user.id)
      return await personError(ctx, user, 404, tr('app.access.notFoundTitle'), tr('app.ai.notFound'));
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
        <p>{tr('app.ai.chooseCompany')}</p>
        <ul>
          {managed.map((m) => (
            <li>
              <a href={`/management/${m.dataset}/ai-connections`}>{m.name}</a>
            </li>
          ))}
        </ul>
      </>
    ) : (
      <p id="not-manager">{tr('app.ai.notManager')}</p>
    );
    await page(ctx, managed.length ? 200 : 403, user, tr('app.ai.managementTitle'), body);
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
      await personError(ctx, user, 403, tr('app.ai.managementTitle'), tr('app.ai.onlyManagers'));
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
        <h2 id="switch-heading">{tr('app.ai.switchHeading', { company: company.name })}</h2>
        <p id="switch-state">{tr(on ? 'app.ai.stateOn' : 'app.ai.stateOff')}</p>
        <form method="post" action={`${base}/switch`}>
          <Csrf token={csrf} />
          <input type="hidden" name="enabled" value={on ? 'off' : 'on'} />
          <button type="submit" id="switch" class={on ? 'danger' : ''}>
            {tr(on ? 'app.ai.switchOff' : 'app.ai.switchOn')}
          </button>
          {on ? (
            <p>
              <small>{tr('app.ai.switchOffHint')}</small>
            </p>
          ) : null}
        </form>
      </section>
    );
    const table = (
      <ActiveTable
        caption={tr('app.ai.companyCaption', { company: company.name })}
        empty={tr('app.ai.companyNone')}
        rows={rows}
        first={[{ heading: tr('app.members.person'), cell: person }, appColumn()]}
        disconnect={(c) =>
          disconnectForm(
            `${base}/${c.id}/disconnect`,
            csrf,
            tr('app.ai.disconnectOf', { app: c.client_name, email: c.user_email }),
          )
        }
      />
    );
    await page(
      ctx,
      200,
      user,
      tr('app.ai.managementTitle'),
      <>
        {notice(ctx)}
        {switchForm}
        <h2>{tr('app.ai.connections')}</h2>
        {table}
        <EndedSection rows={endedRows} who={{ heading: tr('app.members.person'), cell: person }} />
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
      return await personError(ctx, user, 400, tr('app.ai.invalid'), tr('app.ai.invalidText'));
    try {
      await ledger.setAiConnections(company.dataset, user.id, value === 'on');
    } catch (err) {
      if (err instanceof LedgerForbiddenError)
        return await personError(ctx, user, 403, tr('app.access.forbiddenTitle'), err.message);
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
      return await personError(ctx, user, 404, tr('app.access.notFoundTitle'), tr('app.ai.notFoundCompany'));
    await connections.end(c.id, c.user_id === user.id ? 'disconnected_by_person' : 'disconnected_by_admin');
    deps.log.info({ conn: c.id, user: user.id }, 'connection disconnected under management');
    ctx.status = 303;
    ctx.redirect(`/management/${company.dataset}/ai-connections?notice=disconnected`);
  });

  return router;
}
