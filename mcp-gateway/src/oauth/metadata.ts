/**
 * Discovery: authorization-server metadata (RFC 8414) and per-dataset protected-resource
 * metadata (RFC 9728). Public, CORS-enabled; errors as the JSON error body of the API paths.
 */
import Router from '@koa/router';
import { ALL_SCOPES, isDatasetName, mcpUrl } from '@ledger/shared';
import type { OAuthDeps } from './oauthDeps.ts';
import { errorBoundary, jsonErrorBody, jsonErrors } from '../http/errors.ts';

export function authorizationServerMetadata(deps: OAuthDeps) {
  const base = deps.issuer;
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    revocation_endpoint: `${base}/oauth/revoke`,
    registration_endpoint: `${base}/oauth/register`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

export function metadataRouter(deps: OAuthDeps): Router {
  const router = new Router();
  router.use(errorBoundary(jsonErrors, deps.log));

  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = authorizationServerMetadata(deps);
  });

  router.get('/.well-known/oauth-protected-resource/mcp/:dataset', async (ctx) => {
    const dataset = String(ctx.params.dataset);
    const company = isDatasetName(dataset) ? await deps.ledger.company(dataset) : undefined;
    if (!company) {
      ctx.status = 404;
      ctx.body = jsonErrorBody('not_found', `No MCP server for dataset "${dataset.slice(0, 100)}".`);
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      resource: mcpUrl(deps.config.publicUrl, dataset),
      resource_name: `${company.name} (books)`,
      authorization_servers: [deps.issuer],
      scopes_supported: [...ALL_SCOPES],
      bearer_methods_supported: ['header'],
    };
  });

  return router;
}
