/**
 * "My Profile → AI connections" (the person's own connections) and
 * "System → Management → AI connections" (owners/admins: all of a company's connections,
 * disconnect any, switch AI connections on or off).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { AREA_LABELS, isDatasetName, type Area } from '@ledger/shared';
import type { GatewayDeps } from '../deps.ts';
import { bodyFields, parseBody } from '../http/bodyParser.ts';
import { errorBoundary, pageErrors } from '../http/errors.ts';
import { LedgerForbiddenError } from '../ledgerClient.ts';
import type { ConnectionRow } from '../oauth/connections.ts';
import type { SessionUser } from '../oauth/session.ts';
import { errorPage, html, raw, sendPage, type Raw } from './html.ts';
import { signInUrl } from './signin.ts';

function when(msValue: number): string {
  return new Date(msValue).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

export function scopeText(scopes: string): string {
  return scopes.split(' ').filter(Boolean).map((s) => {
    const [area, access] = s.split(':') as [Area, string];
    return `${AREA_LABELS[area] ?? area}: ${access === 'write' ? 'Read and change' : 'Read'}`;
  }).join('; ');
}

function clientCell(c: ConnectionRow): Raw {
  return html`${c.client_name}<br><small>${c.verified_host ? `Verified domain: ${c.verified_host}` : 'Unverified app'}</small>`;
}

const NOTICES: Record<string, string> = {
  disconnected: 'The connection has ended. Its tokens no longer work.',
  on: 'AI connections are switched on.',
  off: 'AI connections are switched off; all of the company\'s connections have ended.',
};

function notice(ctx: Context): Raw {
  const text = NOTICES[String(ctx.query.notice ?? '')];
  return text ? html`<div class="notice ok" role="status">${text}</div>` : raw('');
}

const ID_PARAM = /^[0-9a-f-]{36}$/;

export function connectionsRouter(deps: GatewayDeps): Router {
  const router = new Router();
  router.use(errorBoundary(pageErrors, deps.log), parseBody);
  const { sessions, connections, ledger } = deps;

  /** An error page for the signed-in person (with the navigation and a fresh sign-out form). */
  function personError(ctx: Context, user: SessionUser, status: number, title: string, message: string): void {
    errorPage(ctx, status, title, message, user, sessions.csrfToken(ctx));
  }

  async function requireUser(ctx: Context): Promise<SessionUser | undefined> {
    const user = await sessions.user(ctx);
    if (!user) {
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      ctx.redirect(signInUrl(ctx.method === 'GET' ? ctx.url : '/account/ai-connections'));
    }
    return user;
  }

  /** For POSTs: signed in and a valid CSRF token, else an answer has been sent. */
  async function requirePost(ctx: Context): Promise<SessionUser | undefined> {
    const user = await requireUser(ctx);
    if (!user) return undefined;
    if (!sessions.checkCsrf(ctx, bodyFields(ctx).csrf)) {
      personError(ctx, user, 403, 'The form has expired', 'The form could not be verified (CSRF check failed). Reload the page and try again.');
      return undefined;
    }
    return user;
  }

  function disconnectForm(action: string, csrf: string, label: string): Raw {
    return html`<form method="post" action="${action}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="danger" aria-label="${label}">Disconnect</button></form>`;
  }

  router.get('/account/ai-connections', async (ctx) => {
    const user = await requireUser(ctx);
    if (!user) return;
    const csrf = sessions.csrfToken(ctx);
    const [rows, memberships] = await Promise.all([connections.listForUser(user.id), ledger.memberships(user.id)]);
    const names = new Map(memberships.map((m) => [m.dataset, m.name]));
    const table = rows.length
      ? html`<table id="connections"><caption>Your active AI connections</caption>
<thead><tr><th scope="col">App</th><th scope="col">Company</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col">Action</th></tr></thead>
<tbody>${rows.map((c) => html`<tr data-connection="${c.id}"><td>${clientCell(c)}</td><td>${names.get(c.dataset) ?? c.dataset}</td><td>${scopeText(c.scopes)}</td><td>${when(c.created_at)}</td><td>${when(c.last_used_at)}</td>
<td>${disconnectForm(`/account/ai-connections/${c.id}/disconnect`, csrf, `Disconnect ${c.client_name} from ${names.get(c.dataset) ?? c.dataset}`)}</td></tr>`)}</tbody></table>`
      : html`<p id="no-connections">You have no active AI connections.</p>`;
    sendPage(ctx, 200, { title: 'My Profile → AI connections', user, csrf }, html`${notice(ctx)}
<p>Assistants you have connected to your companies. Disconnecting ends a connection at once; connecting again needs your consent again.</p>${table}`);
  });

  router.post('/account/ai-connections/:id/disconnect', async (ctx) => {
    const user = await requirePost(ctx);
    if (!user) return;
    const id = String(ctx.params.id);
    const c = ID_PARAM.test(id) ? await connections.get(id) : undefined;
    if (!c || c.user_id !== user.id) return personError(ctx, user, 404, 'Not found', 'No such connection of yours.');
    await connections.end(c.id, 'disconnected_by_person');
    deps.log.info({ conn: c.id, user: user.id }, 'connection disconnected by the person');
    ctx.status = 303;
    ctx.redirect('/account/ai-connections?notice=disconnected');
  });

  router.get('/management/ai-connections', async (ctx) => {
    const user = await requireUser(ctx);
    if (!user) return;
    const csrf = sessions.csrfToken(ctx);
    const managed = (await ledger.memberships(user.id)).filter((m) => m.may_connect_assistants);
    if (managed.length === 1) {
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect(`/management/${managed[0]!.dataset}/ai-connections`);
    }
    const body = managed.length
      ? html`<p>Choose a company:</p><ul>${managed.map((m) => html`<li><a href="/management/${m.dataset}/ai-connections">${m.name}</a></li>`)}</ul>`
      : html`<p id="not-manager">Only owners and admins manage AI connections, and you are not owner or admin of any company.</p>`;
    sendPage(ctx, managed.length ? 200 : 403, { title: 'System → Management → AI connections', user, csrf }, body);
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
    if (!member || !member.may_connect_assistants) {
      personError(ctx, user, 403, 'System → Management → AI connections', 'Only owners and admins of this company manage its AI connections.');
      return undefined;
    }
    return { user, company: member.company };
  }

  router.get('/management/:dataset/ai-connections', async (ctx) => {
    const managed = await managing(ctx, requireUser);
    if (!managed) return;
    const { user, company } = managed;
    const csrf = sessions.csrfToken(ctx);
    const rows = await connections.listForDataset(company.dataset);
    const on = company.ai_connections_enabled;
    const base = `/management/${company.dataset}/ai-connections`;
    const switchForm = html`<section aria-labelledby="switch-heading"><h2 id="switch-heading">AI connections for ${company.name}</h2>
<p id="switch-state">AI connections are <strong>${on ? 'on' : 'off'}</strong>.
${on ? 'Owners and admins can connect AI assistants to this company.' : 'No assistant can connect to this company.'}</p>
<form method="post" action="${base}/switch"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="enabled" value="${on ? 'off' : 'on'}">
<button type="submit" id="switch" class="${on ? 'danger' : ''}">${on ? 'Switch AI connections off' : 'Switch AI connections on'}</button>
${on ? html`<p><small>Switching off ends all connections of this company at once.</small></p>` : raw('')}</form></section>`;
    const table = rows.length
      ? html`<table id="connections"><caption>Active AI connections of ${company.name}</caption>
<thead><tr><th scope="col">Person</th><th scope="col">App</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col">Action</th></tr></thead>
<tbody>${rows.map((c) => html`<tr data-connection="${c.id}"><td>${c.user_name}<br><small>${c.user_email}</small></td><td>${clientCell(c)}</td><td>${scopeText(c.scopes)}</td><td>${when(c.created_at)}</td><td>${when(c.last_used_at)}</td>
<td>${disconnectForm(`${base}/${c.id}/disconnect`, csrf, `Disconnect ${c.client_name} of ${c.user_email}`)}</td></tr>`)}</tbody></table>`
      : html`<p id="no-connections">There are no active AI connections.</p>`;
    sendPage(ctx, 200, { title: 'System → Management → AI connections', user, csrf }, html`${notice(ctx)}${switchForm}<h2>Connections</h2>${table}`);
  });

  router.post('/management/:dataset/ai-connections/switch', async (ctx) => {
    const managed = await managing(ctx, requirePost);
    if (!managed) return;
    const { user, company } = managed;
    const value = bodyFields(ctx).enabled;
    if (value !== 'on' && value !== 'off') return personError(ctx, user, 400, 'Invalid choice', 'enabled must be on or off.');
    try {
      await ledger.setAiConnections(company.dataset, user.id, value === 'on');
    } catch (err) {
      if (err instanceof LedgerForbiddenError) return personError(ctx, user, 403, 'Not allowed', err.message);
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
    if (!c || c.dataset !== company.dataset) return personError(ctx, user, 404, 'Not found', 'No such connection in this company.');
    await connections.end(c.id, c.user_id === user.id ? 'disconnected_by_person' : 'disconnected_by_admin');
    deps.log.info({ conn: c.id, user: user.id }, 'connection disconnected under management');
    ctx.status = 303;
    ctx.redirect(`/management/${company.dataset}/ai-connections?notice=disconnected`);
  });

  return router;
}
