import { errorBodySchema } from '@ledger/shared';
import type { RouteDef } from './route.ts';
import { ENDPOINT_PERMISSIONS, resolveRule } from './endpointPermissions.ts';
import { DATASET_PATTERN } from '../db/companies.ts';
import { CACHE_CONTROL } from './caching.ts';

/**
 * The OpenAPI 3.1 document of the key-based REST API, built from the route definitions
 * (the same JSON schemas ajv validates with) and the endpoint → permission map.
 * `{vc}` routes are listed once per side (`/arap/vendor`, `/arap/customer`), so each
 * side shows its own body schema and permission.
 */
type Json = Record<string, unknown>;
type Side = 'vendor' | 'customer';

const errorRef = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorRef } } });

const ERROR_RESPONSES: Record<string, Json> = {
  '400': errorResponse('invalid request: schema violation (the field is named as a JSON pointer), malformed JSON, invalid_currency, vc_not_found, amount_exceeded, unbalanced'),
  '401': errorResponse('missing or invalid API key'),
  '403': errorResponse('no access to the dataset, or the permission named in the message is missing'),
  '404': errorResponse('no such resource or route'),
  '413': errorResponse('request body too large'),
};

/** Response headers of every list (route.ts listHeaders). */
const LIST_HEADERS: Json = {
  'X-Total-Count': { description: 'number of rows of the whole list (all pages, filters applied)', schema: { type: 'integer', minimum: 0 } },
  Link: {
    description: 'RFC 8288 links to the next and previous page (rel="next", rel="prev"), absolute URLs; absent on a single page',
    schema: { type: 'string' },
  },
};

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'created', 204: 'no content' };

function tagOf(path: string): string {
  const first = path.split('/')[1] ?? 'misc';
  return first === 'arap' ? (/^\/arap\/(vendor|customer)\b/.test(path) ? 'parties' : 'arap') : first;
}

function operationId(method: string, path: string): string {
  return `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'dataset'
      ? { type: 'string', pattern: DATASET_PATTERN.source, description: "the company's dataset name" }
      : /(^id|Id)$/.test(name!) ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
}

function queryParameters(schema: object | undefined): Json[] {
  if (!schema) return [];
  const s = schema as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => ({
    name,
    in: 'query',
    required: s.required?.includes(name) ?? false,
    ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
    schema: prop,
  }));
}

function operation(route: RouteDef, vc: Side | undefined, fullPath: string): Json {
  const rule = ENDPOINT_PERMISSIONS[`${route.method} ${route.path}`];
  const { permission, scope } = rule ? resolveRule(rule, vc) : { permission: null, scope: null };
  const status = route.status ?? 200;
  const response = vc && route.responseBySide ? route.responseBySide[vc] : route.response;
  const body = vc && route.bodyBySide ? route.bodyBySide[vc] : route.body;
  const query = vc && route.queryBySide ? route.queryBySide[vc] : route.query;
  const responses: Json = {
    [String(status)]: {
      description: STATUS_TEXT[status] ?? 'success',
      ...(status !== 204 ? { content: { 'application/json': { schema: response ?? {} } } } : {}),
      ...(route.cacheable || route.list
        ? {
            headers: {
              ...(route.list ? LIST_HEADERS : {}),
              ...(route.cacheable ? { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string', example: CACHE_CONTROL } } } : {}),
            },
          }
        : {}),
    },
    ...(route.cacheable ? { '304': { description: 'not modified: the copy named in If-None-Match is current' } } : {}),
    ...ERROR_RESPONSES,
  };
  if (route.method === 'GET' || route.method === 'DELETE') delete responses['413'];
  return {
    operationId: operationId(route.method, fullPath),
    summary: route.summary ?? `${route.method} ${fullPath}`,
    tags: [tagOf(fullPath.replace('/client/{dataset}', ''))],
    parameters: [
      ...pathParameters(fullPath),
      ...queryParameters(query),
      ...(route.cacheable ? [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }] : []),
    ],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses,
    'x-permission': permission,
    'x-oauth-scope': scope,
  };
}

export function buildOpenApi(routes: readonly RouteDef[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const sides: (Side | undefined)[] = route.path.includes(':vc') ? ['vendor', 'customer'] : [undefined];
    for (const vc of sides) {
      const fullPath = `/client/{dataset}${route.path.replace(':vc', vc ?? '').replace(/:([A-Za-z_]+)/g, '{$1}')}`;
      (paths[fullPath] ??= {})[route.method.toLowerCase()] = operation(route, vc, fullPath);
    }
  }
  const meta = (summary: string, schema: Json) => ({
    get: { operationId: operationId('GET', summary), summary, tags: ['meta'], security: [], responses: { '200': { description: 'OK', content: { 'application/json': { schema } } } } },
  });
  paths['/healthz'] = meta('Liveness', { type: 'object', properties: { status: { const: 'ok' } } });
  paths['/readyz'] = meta('Readiness (database reachable)', { type: 'object', properties: { status: { const: 'ready' } } });
  (paths['/readyz']!.get as Json).responses = { ...((paths['/readyz']!.get as Json).responses as Json), '503': errorResponse('database not reachable') };
  paths['/openapi.json'] = meta('This document', { type: 'object' });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledger REST API',
      version: '1.0.0',
      description:
        'Key-based REST API of the ledger. Every path is under /client/{dataset}; send the API key in X-API-Key. ' +
        'Errors: {"error": {"code", "message", "field"}} where field is a JSON pointer to the field at fault. ' +
        '`x-permission` names the role permission an operation needs; `x-oauth-scope` the scope an AI connection needs.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [...new Set(Object.values(paths).flatMap((p) => Object.values(p).flatMap((o) => (o as { tags: string[] }).tags)))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key (ak_...), tied to one dataset' } },
      schemas: { Error: errorBodySchema },
    },
  };
}
