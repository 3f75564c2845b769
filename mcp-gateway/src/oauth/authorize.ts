/**
 * GET /oauth/authorize shows the consent page (after sign-in); POST /oauth/authorize takes
 * the person's decision and sends the browser back with a code or `access_denied`.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { AREAS, WRITABLE_AREAS, type Area } from '@ledger/shared';
import type { OAuthDeps } from './oauthDeps.ts';
import { bodyFields, parseBody } from '../http/bodyParser.ts';
import { errorBoundary, pageErrors } from '../http/errors.ts';
import type { MemberInfo } from '../ledgerClient.ts';
import { consentBody, notAllowedBody, type AreaChoice } from './consentPage.tsx';
import { errorPage, sendPage } from '../http/page.tsx';
import { AUTHORIZE_PARAMS, checkAuthorizeRequest, clientRedirect, type AuthorizeRequest } from './authorizeRequest.ts';
import { standingRefusal } from './liveness.ts';
import { signInUrl, type SessionUser } from './session.ts';
import { CodeStore } from './token/codeStore.ts';

/**
 * Why this person may not connect assistants to the company, or undefined when they may: the
 * same standing rule that ends a live connection (liveness.ts), told to the person.
 */
function refusal(member: MemberInfo | undefined, companyName: string): string | undefined {
  switch (standingRefusal(member)) {
    case undefined:
      return undefined;
    case 'role_lost':
      return `Only owners and admins of ${companyName} can connect AI assistants; your role is ${member?.role}.`;
    case 'ai_connections_off':
      return (
        `AI connections are switched off for ${companyName}. An owner or admin can switch them on under System → ` +
        `Management → AI connections.`
      );
    default:
      return `You have no access to ${companyName}.`;
  }
}

function authorizeUrl(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params).toString()}`;
}

function bodyParams(body: Readonly<Record<string, unknown>>): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) {
    const v = body[name];
    if (typeof v === 'string') out.append(name, v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.append(name, x);
  }
  return out;
}

/** The person's choice per area; undefined when a value is not allowed. */
function readChoices(body: Readonly<Record<string, unknown>>): Record<Area, AreaChoice> | undefined {
  const out = {} as Record<Area, AreaChoice>;
  for (const area of AREAS) {
    const v = body[`area_${area}`] ?? 'none';
    const allowed: string[] = WRITABLE_AREAS.includes(area) ? ['none', 'read', 'write'] : ['none', 'read'];
    if (typeof v !== 'string' || !allowed.includes(v)) return undefined;
    out[area] = v as AreaChoice;
  }
  return out;
}

export function scopesOf(choices: Record<Area, AreaChoice>): string[] {
  return AREAS.filter((a) => choices[a] !== 'none').map((a) => `${a}:${choices[a]}`);
}

export function authorizeRouter(deps: OAuthDeps): Router {
  const router = new Router();
  router.use(errorBoundary(pageErrors, deps.log), parseBody);
  const codes = new CodeStore(deps.db);

  async function render(ctx: Context, req: AuthorizeRequest, user: SessionUser) {
    const csrf = deps.sessions.csrfToken(ctx);
    const member = await deps.ledger.member(req.dataset, user.id);
    const reason = refusal(member, req.company.name);
    const title = `Connect ${req.client.clientName} to ${req.company.name}`;
    if (reason) return sendPage(ctx, 403, title, notAllowedBody(req, csrf, reason));
    const replaces = await deps.connections.activeOf(user.id, req.dataset, req.client.clientId);
    sendPage(ctx, 200, title, consentBody(req, user, csrf, { replaces }));
  }

  router.get('/oauth/authorize', async (ctx) => {
    const check = await checkAuthorizeRequest(deps, new URLSearchParams(ctx.querystring));
    if (check.kind === 'page')
      return errorPage(ctx, check.status, 'This connection request cannot be used', check.message);
    if (check.kind === 'redirect') return ctx.redirect(check.location);
    const user = await deps.sessions.user(ctx);
    if (!user) {
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect(signInUrl(authorizeUrl(check.request.params)));
    }
    await render(ctx, check.request, user);
  });

  router.post('/oauth/authorize', async (ctx) => {
    const body = bodyFields(ctx);
    const check = await checkAuthorizeRequest(deps, bodyParams(body));
    if (check.kind === 'page')
      return errorPage(ctx, check.status, 'This connection request cannot be used', check.message);
    ctx.status = 303;
    if (check.kind === 'redirect') return ctx.redirect(check.location);
    const req = check.request;
    const user = await deps.sessions.user(ctx);
    if (!user) return ctx.redirect(signInUrl(authorizeUrl(req.params)));
    if (!deps.sessions.checkCsrf(ctx, body.csrf)) {
      return errorPage(
        ctx,
        403,
        'The form has expired',
        'The form could not be verified (CSRF check failed). Go back to the app and start the connection again.',
      );
    }
    const deny = (description: string) =>
      ctx.redirect(
        clientRedirect(req.redirectUri, deps.issuer, {
          error: 'access_denied',
          error_description: description,
          state: req.state,
        }),
      );
    if (body.decision !== 'allow') return deny('The person denied access.');

    const member = await deps.ledger.member(req.dataset, user.id);
    const reason = refusal(member, req.company.name);
    if (reason) return deny(reason);
    const choices = readChoices(body);
    if (!choices) return errorPage(ctx, 400, 'Invalid choice', 'One of the access choices is not valid.');
    const scopes = scopesOf(choices);
    if (scopes.length === 0) {
      const csrf = deps.sessions.csrfToken(ctx);
      const replaces = await deps.connections.activeOf(user.id, req.dataset, req.client.clientId);
      return sendPage(
        ctx,
        422,
        `Connect ${req.client.clientName} to ${req.company.name}`,
        consentBody(req, user, csrf, { choices, error: 'Choose at least one area, or deny the request.', replaces }),
      );
    }

    const code = await codes.issue(
      {
        clientId: req.client.clientId,
        clientName: req.client.clientName,
        verifiedHost: req.client.verifiedHost ?? null,
        userId: user.id,
        userName: user.name,
        userEmail: user.email,
        dataset: req.dataset,
        resource: req.resource,
        scopes,
        redirectUri: req.redirectUri,
        redirectUriSent: req.redirectUriSent,
        codeChallenge: req.codeChallenge,
      },
      deps.now(),
    );
    deps.log.info(
      { client: req.client.clientId, dataset: req.dataset, user: user.id, scopes },
      'authorization code issued',
    );
    ctx.redirect(clientRedirect(req.redirectUri, deps.issuer, { code, state: req.state }));
  });

  return router;
}
