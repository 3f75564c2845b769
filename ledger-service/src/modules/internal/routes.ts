/**
 * The ledger's internal API, only for the MCP gateway (DESIGN.md §1): sign-in checks,
 * memberships and the company's AI-connections switch. Every request carries a JWT the
 * gateway signs with its key pair for the audience `ledger-internal`; API keys and
 * service credentials (audience `ledger-service`) are refused. The gateway never
 * forwards `/internal/*` from the public origin.
 */
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../../kernel/deps.ts';
import { InternalCredentialVerifier } from './credential.ts';
import { ApiError } from '../../kernel/errors.ts';
import { verifyCredentials } from '../../db/users.ts';
import { findCompanyByDataset, findMembership, type Company } from '../../db/companies.ts';
import { recordAudit } from '../../db/audit.ts';
import { withTenant } from '../../db/knex.ts';
import { isRole, mayConnectAssistants } from '@ledger/shared';
import { permittedEndpoints } from '../../kernel/endpointAccess.ts';
import { activeMemberships, findUser, setAiConnections } from './store.ts';

function internalAuth(verifier: InternalCredentialVerifier) {
  return async function requireGateway(ctx: Context, next: Next) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    if (!bearer || !(await verifier.verify(bearer))) {
      throw new ApiError('unauthorized', 'The internal API accepts only the gateway\'s credential.');
    }
    await next();
  };
}

function userIdParam(ctx: Context): number {
  const raw = String(ctx.params.userId);
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError('invalid_request', 'user id must be a positive integer', '/userId');
  return Number(raw);
}

async function companyParam(deps: AppDeps, ctx: Context): Promise<Company> {
  const company = await findCompanyByDataset(deps.db, String(ctx.params.dataset));
  if (!company) throw new ApiError('not_found', `Dataset "${ctx.params.dataset}" not found.`);
  return company;
}

function companyView(c: Company) {
  return { dataset: c.dataset, name: c.name, ai_connections_enabled: c.ai_connections_enabled };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(body: Record<string, unknown>, name: string, max: number): string {
  const v = body[name];
  if (typeof v !== 'string' || v.length === 0 || v.length > max) {
    throw new ApiError('invalid_request', `${name} must be a string of 1 to ${max} characters`, `/${name}`);
  }
  return v;
}

/** Middleware for everything under /internal: the credential is checked before any routing. */
export function internalApi(deps: AppDeps, readBody: Middleware) {
  const auth = internalAuth(new InternalCredentialVerifier(deps.config));
  const routes = internalRouter(deps).routes();
  return async function internal(ctx: Context, next: Next) {
    if (ctx.path !== '/internal' && !ctx.path.startsWith('/internal/')) return next();
    // the body is read only after the credential passed
    await auth(ctx, () => readBody(ctx, () => routes(ctx as never, next)));
  };
}

function internalRouter(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router({ prefix: '/internal' });

  /** Email + password + TOTP together: `{ valid, user? }`; the answer never says which factor failed. */
  router.post('/auth/verify', async (ctx) => {
    const body = ctx.request.body;
    if (!isObject(body)) throw new ApiError('invalid_request', 'Send a JSON object.');
    const email = str(body, 'email', 320);
    const password = str(body, 'password', 1024);
    const code = str(body, 'totp', 16);
    const user = await verifyCredentials(db, deps.encryptionKey, email, password, code);
    ctx.body = user
      ? { valid: true, user: { id: user.id, name: user.name, email: user.email } }
      : { valid: false };
  });

  router.get('/users/:userId', async (ctx) => {
    const user = await findUser(db, userIdParam(ctx));
    if (!user) throw new ApiError('not_found', 'User not found.');
    ctx.body = { user };
  });

  /** The person's companies with role and switch, for the gateway's pages. */
  router.get('/users/:userId/memberships', async (ctx) => {
    const rows = await activeMemberships(db, userIdParam(ctx));
    ctx.body = {
      memberships: rows.map((r) => ({
        dataset: r.dataset, name: r.name, ai_connections_enabled: r.ai_connections_enabled,
        role: r.role, may_connect_assistants: isRole(r.role) && mayConnectAssistants(r.role),
      })),
    };
  });

  router.get('/companies/:dataset', async (ctx) => {
    ctx.body = { company: companyView(await companyParam(deps, ctx)) };
  });

  /**
   * Everything the gateway checks on each use of a connection: membership and role,
   * whether the account is active, and the company's AI-connections switch.
   */
  router.get('/companies/:dataset/members/:userId', async (ctx) => {
    const company = await companyParam(deps, ctx);
    const userId = userIdParam(ctx);
    const user = await findUser(db, userId);
    const membership = user ? await findMembership(db, company.id, userId) : undefined;
    ctx.body = {
      company: companyView(company),
      user_exists: Boolean(user),
      user_active: Boolean(user?.active),
      role: membership?.role ?? null,
      may_connect_assistants: Boolean(membership && user?.active && mayConnectAssistants(membership.role)),
    };
  });

  /** Endpoints the member may call with the given scopes (`?scope=a b`), for the MCP tool list. */
  router.get('/companies/:dataset/members/:userId/endpoints', async (ctx) => {
    const company = await companyParam(deps, ctx);
    const membership = await findMembership(db, company.id, userIdParam(ctx));
    const scopes = String(ctx.query.scope ?? '').split(' ').filter(Boolean);
    const role = membership?.user_active && isRole(membership.role) ? membership.role : null;
    ctx.body = { role, endpoints: role ? permittedEndpoints(role, scopes) : [] };
  });

  /** Switches AI connections on or off; only an active owner or admin; audited. */
  router.put('/companies/:dataset/ai_connections', async (ctx) => {
    const company = await companyParam(deps, ctx);
    const body = ctx.request.body;
    if (!isObject(body) || typeof body.enabled !== 'boolean') {
      throw new ApiError('invalid_request', 'enabled must be true or false', '/enabled');
    }
    const userId = body.user_id;
    if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId < 1) {
      throw new ApiError('invalid_request', 'user_id must be a positive integer', '/user_id');
    }
    const membership = await findMembership(db, company.id, userId);
    if (!membership || !membership.user_active || !mayConnectAssistants(membership.role)) {
      throw new ApiError('forbidden', 'Only an owner or admin of the company may switch AI connections.');
    }
    const enabled = body.enabled;
    await setAiConnections(db, company.id, enabled);
    if (enabled !== company.ai_connections_enabled) {
      await withTenant(db, company.id, (tx) =>
        recordAudit(tx, company.id, { userId, via: { kind: 'web', id: null, label: 'AI connections' } },
          'company', company.id, enabled ? 'ai_connections_on' : 'ai_connections_off'),
      );
    }
    ctx.body = { company: { ...companyView(company), ai_connections_enabled: enabled } };
  });

  return router;
}
