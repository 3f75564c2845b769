/**
 * The ledger's internal API, only for the MCP gateway (docs/oauth.md "Gateway ↔ ledger"): sign-in checks,
 * memberships and the company's AI-connections switch. Each endpoint has its contract
 * (shared/src/contracts/internal.ts); the kernel validates by it (kernel/internalRoute.ts). Every request carries a JWT
 * the
 * gateway signs with its key pair for the audience `ledger-internal`; API keys and
 * service credentials (audience `ledger-service`) are refused. The gateway never
 * forwards `/internal/*` from the public origin.
 */
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { internalContracts as contracts, isRole, mayConnectAssistants } from '@ledger/shared';
import type { AppDeps } from '../../kernel/deps.ts';
import { ApiError } from '../../kernel/errors.ts';
import { internalRoute, mountInternalRoutes, type InternalRoute } from '../../kernel/internalRoute.ts';
import { permittedEndpoints } from '../../kernel/endpointAccess.ts';
import { checkCredentials } from '../../db/users.ts';
import { findCompanyByDataset, findMembership, type Company } from '../../db/companies.ts';
import type { Db } from '../../db/knex.ts';
import { notFound } from '../../domain/errors.ts';
import { InternalCredentialVerifier } from './credential.ts';
import { auditConnection, switchAiConnections } from './service.ts';
import { acceptInvitation, invitationsOfUser } from '../members/index.ts';
import { activeMemberships, findUser } from './store.ts';

function internalAuth(verifier: InternalCredentialVerifier) {
  return async function requireGateway(ctx: Context, next: Next) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    if (!bearer || !(await verifier.verify(bearer))) {
      // its scheme is the gateway's bearer credential, not the API key the public 401s name
      throw new ApiError(
        'unauthorized',
        "The internal API accepts only the gateway's credential.",
        undefined,
        undefined,
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
    await next();
  };
}

async function companyOf(db: Db, dataset: string): Promise<Company> {
  const company = await findCompanyByDataset(db, dataset);
  if (!company) throw notFound(`Dataset "${dataset}" not found.`);
  return company;
}

function companyView(c: Company) {
  return { dataset: c.dataset, name: c.name, ai_connections_enabled: c.ai_connections_enabled };
}

/** Middleware for everything under /internal: the credential is checked before any routing. */
export function internalApi(deps: AppDeps, readBody: Middleware) {
  const auth = internalAuth(new InternalCredentialVerifier(deps.config));
  const router = new Router({ prefix: '/internal' });
  mountInternalRoutes(router, deps.db, internalRoutes(deps));
  const routes = router.routes();
  return async function internal(ctx: Context, next: Next) {
    if (ctx.path !== '/internal' && !ctx.path.startsWith('/internal/')) return next();
    // the body is read only after the credential passed
    await auth(ctx, () => readBody(ctx, () => routes(ctx as never, next)));
  };
}

/** One handler per internal contract; the kernel validated params, body and query before. */
export function internalRoutes(deps: AppDeps): InternalRoute[] {
  const { db } = deps;
  return [
    /**
     * Email + password + TOTP together: `{ valid, user? }`; the answer never says which factor
     * failed, but with the right password a code already used is told (`reason: code_used`).
     */
    internalRoute(contracts.verifyCredentials, async ({ body }) => {
      const check = await checkCredentials(db, deps.encryptionKey, body.email, body.password, body.totp);
      if (check.ok) return { valid: true, user: { id: check.user.id, name: check.user.name, email: check.user.email } };
      if (check.reason === 'code_used')
        return { valid: false, reason: 'code_used' as const, next_code_in_seconds: check.nextCodeInSeconds };
      return { valid: false };
    }),

    internalRoute(contracts.getUser, async ({ params }) => {
      const user = await findUser(db, Number(params.userId));
      if (!user) throw notFound('User not found.');
      return { user };
    }),

    /** The person's companies with role and switch, for the gateway's pages. */
    internalRoute(contracts.listMemberships, async ({ params }) => {
      const rows = await activeMemberships(db, Number(params.userId));
      return {
        memberships: rows.map((r) => ({
          dataset: r.dataset,
          name: r.name,
          ai_connections_enabled: r.ai_connections_enabled,
          role: r.role,
          may_connect_assistants: isRole(r.role) && mayConnectAssistants(r.role),
        })),
      };
    }),

    internalRoute(contracts.getCompany, async ({ params }) => ({
      company: companyView(await companyOf(db, params.dataset)),
    })),

    /**
     * Everything the gateway checks on each use of a connection: membership and role,
     * whether the account is active, and the company's AI-connections switch.
     */
    internalRoute(contracts.getMember, async ({ params }) => {
      const company = await companyOf(db, params.dataset);
      const userId = Number(params.userId);
      const user = await findUser(db, userId);
      const membership = user ? await findMembership(db, company.id, userId) : undefined;
      return {
        company: companyView(company),
        user_exists: Boolean(user),
        user_active: Boolean(user?.active),
        role: membership?.role ?? null,
        may_connect_assistants: Boolean(membership && user?.active && mayConnectAssistants(membership.role)),
      };
    }),

    /** Endpoints the member may call with the given scopes (`?scope=a b`), for the MCP tool list. */
    internalRoute(contracts.listMemberEndpoints, async ({ params, query }) => {
      const company = await companyOf(db, params.dataset);
      const membership = await findMembership(db, company.id, Number(params.userId));
      const scopes = (query.scope ?? '').split(' ').filter(Boolean);
      const role = membership?.user_active && isRole(membership.role) ? membership.role : null;
      return { role, endpoints: role ? permittedEndpoints(role, scopes) : [] };
    }),

    /** Switches AI connections on or off; only an active owner or admin; the switch and its audit commit together. */
    internalRoute(contracts.setAiConnections, async ({ params, body }) => {
      const company = await companyOf(db, params.dataset);
      const enabled = await switchAiConnections(db, company, body);
      return { company: { ...companyView(company), ai_connections_enabled: enabled } };
    }),

    /** The gateway's record of an AI connection's start (and what it replaced) or end. */
    internalRoute(contracts.auditConnection, async ({ params, body }) => {
      await auditConnection(db, await companyOf(db, params.dataset), body);
      return undefined;
    }),

    /** The person's open invitations, and which one the e-mail link's token names (modules/members). */
    internalRoute(contracts.listInvitationsOfUser, async ({ params, query }) =>
      invitationsOfUser(db, Number(params.userId), query.token),
    ),

    /** The invited person accepts: membership, invitation and audit in one transaction of the company. */
    internalRoute(contracts.acceptInvitation, async ({ params }) => ({
      membership: await acceptInvitation(db, Number(params.userId), Number(params.invitationId)),
    })),
  ];
}
