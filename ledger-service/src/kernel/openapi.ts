import {
  DATASET_PATTERN, ERROR_STATUS, errorBodySchema, errorStatusesOf, forSide, sidesOf,
  type Contract, type ErrorCode, type Side,
} from '@ledger/shared';
import { CACHE_CONTROL } from './caching.ts';

/**
 * The OpenAPI 3.1 document of the key-based REST API, built from the endpoint contracts
 * (shared/src/contracts: the same JSON schemas ajv validates with, the permission and the
 * scope). `{vc}` contracts are listed once per side (`/arap/vendor`, `/arap/customer`), so
 * each side shows its own body schema and permission.
 */
type Json = Record<string, unknown>;

const errorRef = { $ref: '#/components/schemas/Error' };

/** What each error status means, for the description beside the codes it stands for. */
const STATUS_MEANING: Record<number, string> = {
  400: 'invalid request (the field at fault is named as a JSON pointer)',
  401: 'missing or invalid API key',
  403: 'no access to the dataset, or the permission named in the message is missing',
  404: 'no such record or route',
  409: 'conflict with the current state',
  413: 'request body or file too large',
  415: 'unsupported body media type',
  422: 'dated in a closed period',
  429: 'too many requests',
  503: 'temporarily unavailable (Retry-After)',
};

/** Response headers of every list (route.ts listHeaders). */
const LIST_HEADERS: Json = {
  'X-Total-Count': { description: 'number of rows of the whole list (all pages, filters applied)', schema: { type: 'integer', minimum: 0 } },
  Link: {
    description: 'RFC 8288 links to the next and previous page (rel="next", rel="prev"), absolute URLs; absent on a single page',
    schema: { type: 'string' },
  },
};

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'created', 202: 'accepted', 204: 'no content' };

function tagOf(path: string): string {
  const first = path.split('/')[1] ?? 'misc';
  return first === 'arap' ? (/^\/arap\/(vendor|customer)\b/.test(path) ? 'parties' : 'arap') : first;
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'dataset'
      ? { type: 'string', pattern: DATASET_PATTERN.source, description: "the company's dataset name" }
      : { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
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

function errorResponses(contract: Contract): Json {
  const out: Json = {};
  for (const [status, codes] of errorStatusesOf(contract)) {
    out[String(status)] = {
      description: `${STATUS_MEANING[status] ?? 'error'}: ${codes.map((c: ErrorCode) => `\`${c}\``).join(', ')}`,
      content: { 'application/json': { schema: errorRef } },
      ...(status === ERROR_STATUS.unavailable ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
    };
  }
  return out;
}

function requestBody(contract: Contract, side: Side | undefined): Json | undefined {
  if (contract.textBody) {
    return { required: true, content: Object.fromEntries(contract.textBody.map((type) => [type, { schema: { type: 'string', description: 'the file itself' } }])) };
  }
  if (!contract.body) return undefined;
  const schema = forSide(contract.body, side);
  const content: Json = { 'application/json': { schema } };
  if (contract.multipart && !contract.multipart.jsonPart) {
    // one file part and nothing else (the inbox upload)
    const { filePart } = contract.multipart;
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: [filePart],
        properties: { [filePart]: { type: 'string', contentMediaType: 'application/octet-stream', description: 'the file, with its Content-Type and filename' } },
      },
    };
  } else if (contract.multipart?.jsonPart) {
    const { jsonPart, filePart } = contract.multipart;
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: [jsonPart],
        properties: {
          [jsonPart]: { ...(schema as object), description: 'the same JSON document as the application/json body' },
          [filePart]: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: 'one part per attachment, with its Content-Type and filename' },
        },
      },
      encoding: { [jsonPart]: { contentType: 'application/json' } },
    };
  }
  // a body-less POST is allowed where the schema requires nothing (e.g. reverse)
  const required = ((schema as { required?: unknown[] }).required ?? []).length > 0;
  return { required, content };
}

function successResponse(contract: Contract, side: Side | undefined): Json {
  const status = contract.status ?? 200;
  const headers: Json = {
    ...(contract.list ? LIST_HEADERS : {}),
    ...(contract.cacheable ? { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string', example: CACHE_CONTROL } } } : {}),
    ...(contract.download ? { 'Content-Disposition': { schema: { type: 'string', example: 'attachment; filename="bill.pdf"' } } } : {}),
  };
  let content: Json | undefined;
  if (contract.download) {
    content = Object.fromEntries(contract.download.map((type) => [type, { schema: { type: 'string', contentMediaType: type === '*/*' ? 'application/octet-stream' : type } }]));
    // JSON by default, the file types on request (Accept; the reports): both documented
    if (contract.response) content = { 'application/json': { schema: forSide(contract.response, side) }, ...content };
  } else if (status !== 204) {
    content = { 'application/json': { schema: contract.response ? forSide(contract.response, side) : {} } };
  }
  return {
    description: STATUS_TEXT[status] ?? 'success',
    ...(content ? { content } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** Every POST takes an Idempotency-Key (kernel/idempotency.ts). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: the same key with the same request within 24 h answers the first answer again ' +
    '(header Idempotent-Replayed: true) without writing; with another request it is a 409 conflict.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

function operation(contract: Contract, side: Side | undefined, fullPath: string): Json {
  return {
    operationId: side ? `${contract.name}${side[0]!.toUpperCase()}${side.slice(1)}` : contract.name,
    summary: contract.summary,
    tags: [tagOf(fullPath.replace('/client/{dataset}', ''))],
    parameters: [
      ...pathParameters(fullPath),
      ...queryParameters(contract.query ? forSide(contract.query, side) as object : undefined),
      ...(contract.cacheable ? [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }] : []),
      ...(contract.method === 'POST' ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    ...(contract.body ? { requestBody: requestBody(contract, side) } : {}),
    responses: {
      [String(contract.status ?? 200)]: successResponse(contract, side),
      ...(contract.cacheable ? { '304': { description: 'not modified: the copy named in If-None-Match is current' } } : {}),
      ...errorResponses(contract),
    },
    'x-permission': contract.permission ? forSide(contract.permission, side) : null,
    'x-oauth-scope': contract.scope,
  };
}

/** `/client/{dataset}/arap/vendor/{id}` for `/arap/:vc/:id` on the vendor side. */
export function openApiPath(contract: Pick<Contract, 'path'>, side: Side | undefined): string {
  return `/client/{dataset}${(side ? contract.path.replace(':vc', side) : contract.path).replace(/:([A-Za-z_]+)/g, '{$1}')}`;
}

export function buildOpenApi(contracts: readonly Contract[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const contract of contracts) {
    for (const side of sidesOf(contract)) {
      const fullPath = openApiPath(contract, side);
      (paths[fullPath] ??= {})[contract.method.toLowerCase()] = operation(contract, side, fullPath);
    }
  }
  const meta = (operationId: string, summary: string, content: Json) => ({
    get: { operationId, summary, tags: ['meta'], security: [], responses: { '200': { description: 'OK', content } } },
  });
  const json = (schema: Json) => ({ 'application/json': { schema } });
  paths['/healthz'] = meta('healthz', 'Liveness', json({ type: 'object', properties: { status: { const: 'ok' } } }));
  paths['/readyz'] = meta('readyz', 'Readiness (database reachable)', json({ type: 'object', properties: { status: { const: 'ready' } } }));
  (paths['/readyz']!.get as Json).responses = {
    ...((paths['/readyz']!.get as Json).responses as Json),
    '503': { description: 'database not reachable', content: json(errorRef) },
  };
  paths['/openapi.json'] = meta('openapi', 'This document', json({ type: 'object' }));
  paths['/docs'] = meta('docs', 'This document rendered as a reference page', { 'text/html': { schema: { type: 'string' } } });

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
