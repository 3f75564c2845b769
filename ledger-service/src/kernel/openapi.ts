import {
  accountNumberSchema,
  assertPublic,
  ERROR_STATUS,
  errorBodySchema,
  errorStatusesOf,
  forSide,
  sidesOf,
  type Contract,
  type ContractExample,
  type ErrorCode,
  type Side,
} from '@ledger/shared';
import { CACHE_CONTROL } from './caching.ts';
import { API_KEY_CHALLENGE } from './errors.ts';

/**
 * The OpenAPI 3.1 document of the key-based REST API, built from the endpoint contracts
 * (shared/src/contracts: the same JSON schemas ajv validates with, the permission and the
 * scope, the summary, description and example). `{vc}` contracts are listed once per side
 * (`/arap/vendor`, `/arap/customer`), so each side shows its own body schema, permission and
 * example. Paths are relative to the server `{api_url}/client/{dataset}`, whose variables a
 * reader fills in once (the reference page's curl examples show the dataset, not `{dataset}`).
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
  431: 'request headers too large (over 16 KiB in all), refused before any routing',
  422: 'dated in a closed period',
  429: 'too many requests',
  503: 'temporarily unavailable (Retry-After)',
};

/** Response headers of every list (route.ts listHeaders). */
const LIST_HEADERS: Json = {
  'X-Total-Count': {
    description: 'number of rows of the whole list (all pages, filters applied)',
    schema: { type: 'integer', minimum: 0 },
  },
  Link: {
    description:
      'RFC 8288 links to the next and previous page (rel="next", rel="prev"), absolute URLs; absent on a single page',
    schema: { type: 'string' },
  },
};

/** The challenge every 401 carries (errors.ts). */
const UNAUTHORIZED_CHALLENGE: Json = {
  description: 'the scheme to authenticate with: the API key in the X-API-Key header',
  schema: { type: 'string', const: API_KEY_CHALLENGE },
};

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'created', 202: 'accepted', 204: 'no content' };

function tagOf(path: string): string {
  const first = path.split('/')[1] ?? 'misc';
  return first === 'arap' ? (/^\/arap\/(vendor|customer)\b/.test(path) ? 'parties' : 'arap') : first;
}

/** What each group of the reference holds (a path of a new first segment needs its line here). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Checking an API key.',
  parties: "Vendors and customers, and vendors' bank accounts (the payees of their bills).",
  arap:
    'AR/AP documents: transactions (bills and charges), invoices with items and their PDF, payments, aging, the ' +
    'services catalogue and the workstation of drafts.',
  gl: 'Journal entries and the general ledger of an account.',
  reports: 'Trial balance, income statement, balance sheet and VAT report, as JSON, CSV or PDF.',
  assets: 'The fixed-asset register, depreciation runs (journal entries) and disposals.',
  bank: "The company's bank accounts, statement import with matching and booking, pain.001 payment files.",
  documents: 'Every stored file, and the AI inbox that reads Swiss QR-bills and proposes the bill.',
  system:
    'Company settings, chart of accounts, tax rates, dimensions, fiscal years, closing the books, revaluation, API ' +
    'keys, webhooks and the audit log.',
  meta: 'Health, readiness and this document; no API key needed.',
  events: 'The change feed: every change an integration cares about, in order, as CloudEvents (docs/events.md).',
};

/** Path parameters that are not numeric ids: an account number, a tax code, a VAT form figure. */
const PATH_TEXT_PARAMETERS: Record<string, Json> = {
  accno: accountNumberSchema,
  code: { type: 'string', minLength: 1, maxLength: 32 },
  figure: { type: 'string', minLength: 1, maxLength: 32 },
};

function pathParameters(path: string, example: ContractExample | undefined): Json[] {
  return [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map(([, name]) => ({
    name: name!,
    in: 'path',
    required: true,
    schema: PATH_TEXT_PARAMETERS[name!] ?? { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    ...(example?.params?.[name!] !== undefined ? { example: example.params[name!] } : {}),
  }));
}

function queryParameters(schema: object | undefined, example: ContractExample | undefined): Json[] {
  if (!schema) return [];
  const s = schema as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => ({
    name,
    in: 'query',
    required: s.required?.includes(name) ?? false,
    ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
    schema: prop,
    ...(example?.query?.[name] !== undefined ? { example: example.query[name] } : {}),
  }));
}

function errorResponses(contract: Contract): Json {
  const out: Json = {};
  for (const [status, codes] of errorStatusesOf(contract)) {
    out[String(status)] = {
      description: `${STATUS_MEANING[status] ?? 'error'}: ${codes.map((c: ErrorCode) => `\`${c}\``).join(', ')}`,
      content: { 'application/json': { schema: errorRef } },
      ...(status === ERROR_STATUS.unavailable ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
      ...(status === ERROR_STATUS.unauthorized ? { headers: { 'WWW-Authenticate': UNAUTHORIZED_CHALLENGE } } : {}),
    };
  }
  return out;
}

/** The media type a text example is written in: XML for a document that starts with a tag, else the other one (CSV). */
function textExampleType(types: readonly string[], text: string): string | undefined {
  return types.find((type) => type.includes('xml') === text.trimStart().startsWith('<'));
}

function requestBody(
  contract: Contract,
  side: Side | undefined,
  example: ContractExample | undefined,
): Json | undefined {
  if (contract.textBody) {
    const types = contract.textBody;
    const text = typeof example?.body === 'string' ? example.body : undefined;
    const exampleType = text === undefined ? undefined : textExampleType(types, text);
    return {
      required: true,
      content: Object.fromEntries(
        types.map((type) => [
          type,
          {
            schema: { type: 'string', description: 'the file itself' },
            ...(type === exampleType ? { example: text } : {}),
          },
        ]),
      ),
    };
  }
  if (!contract.body) return undefined;
  const schema = forSide(contract.body, side);
  const content: Json = {
    'application/json': { schema, ...(example?.body !== undefined ? { example: example.body } : {}) },
  };
  if (contract.multipart && !contract.multipart.jsonPart) {
    // one file part and nothing else (the inbox upload)
    const { filePart } = contract.multipart;
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: [filePart],
        properties: {
          [filePart]: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'the file, with its Content-Type and filename',
          },
        },
      },
    };
  } else if (contract.multipart?.jsonPart) {
    const { jsonPart, jsonPartAliases = [], filePart } = contract.multipart;
    // other names of the JSON part are still read (one JSON part per request): said, not listed as properties
    const aliases = jsonPartAliases.length
      ? ` (also accepted in a part named ${jsonPartAliases.map((a) => `"${a}"`).join(' or ')}; one JSON part only)`
      : '';
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: [jsonPart],
        properties: {
          [jsonPart]: {
            ...(schema as object),
            description: `the same JSON document as the application/json body${aliases}`,
          },
          [filePart]: {
            type: 'array',
            items: { type: 'string', contentMediaType: 'application/octet-stream' },
            description: 'one part per attachment, with its Content-Type and filename',
          },
        },
      },
      encoding: { [jsonPart]: { contentType: 'application/json' } },
    };
  }
  // a body-less POST is allowed where the schema requires nothing (e.g. reverse)
  const required = ((schema as { required?: unknown[] }).required ?? []).length > 0;
  return { required, content };
}

function successResponse(contract: Contract, side: Side | undefined, example: ContractExample | undefined): Json {
  const status = contract.status ?? 200;
  const headers: Json = {
    ...(contract.list ? LIST_HEADERS : {}),
    ...(contract.cacheable
      ? {
          ETag: { schema: { type: 'string' } },
          'Cache-Control': { schema: { type: 'string', example: CACHE_CONTROL } },
        }
      : {}),
    ...(contract.download
      ? { 'Content-Disposition': { schema: { type: 'string', example: 'attachment; filename="bill.pdf"' } } }
      : {}),
    ...(contract.location ? { Location: createdLocationHeader(contract.location, side) } : {}),
  };
  const answer = example?.response;
  const jsonExample = answer !== undefined && contract.response ? { example: answer } : {};
  let content: Json | undefined;
  if (contract.download) {
    // every file type has its example: the example's file of that type (a report's CSV, a PDF's first bytes), or
    // a text file's answer (the payment file's XML) under its own media type
    const fileExample = (type: string) => {
      const file = example?.files?.[type];
      if (file !== undefined) return { example: file };
      return !contract.response && typeof answer === 'string' && type === contract.download?.[0]
        ? { example: answer }
        : {};
    };
    content = Object.fromEntries(
      contract.download.map((type) => [
        type,
        {
          schema:
            type === '*/*'
              ? {
                  type: 'string',
                  contentMediaType: 'application/octet-stream',
                  description: 'the file in the media type it was stored with (Content-Type), e.g. application/pdf',
                }
              : { type: 'string', contentMediaType: type },
          ...fileExample(type),
        },
      ]),
    );
    // JSON by default, the file types on request (Accept; the reports): both documented
    if (contract.response)
      content = { 'application/json': { schema: forSide(contract.response, side), ...jsonExample }, ...content };
  } else if (status !== 204) {
    content = {
      'application/json': { schema: contract.response ? forSide(contract.response, side) : {}, ...jsonExample },
    };
  }
  return {
    description: STATUS_TEXT[status] ?? 'success',
    ...(content ? { content } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** Where a 201's resource is (route.ts createdUrl): the contract's location under the request's base URL. */
function createdLocationHeader(location: string, side: Side | undefined): Json {
  const path = (side ? location.replace(':vc', side) : location).replace(/:([A-Za-z_]+)/g, '{$1}');
  return {
    description:
      `absolute URL of the created resource: {base_url}${path} (\`{…}\`: the path's parameters and the answer's ` +
      `fields)`,
    schema: { type: 'string', format: 'uri' },
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

function operation(contract: Contract, side: Side | undefined, path: string): Json {
  const example = contract.example ? forSide(contract.example, side) : undefined;
  return {
    operationId: side ? `${contract.name}${side[0]!.toUpperCase()}${side.slice(1)}` : contract.name,
    summary: forSide(contract.summary, side),
    description: contract.description,
    tags: [tagOf(path)],
    parameters: [
      ...pathParameters(path, example),
      ...queryParameters(contract.query ? (forSide(contract.query, side) as object) : undefined, example),
      ...(contract.cacheable
        ? [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }]
        : []),
      ...(contract.method === 'POST' ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    ...(contract.body || contract.textBody ? { requestBody: requestBody(contract, side, example) } : {}),
    responses: {
      [String(contract.status ?? 200)]: successResponse(contract, side, example),
      ...(contract.cacheable
        ? { '304': { description: 'not modified: the copy named in If-None-Match is current' } }
        : {}),
      ...errorResponses(contract),
    },
    'x-permission': contract.permission ? forSide(contract.permission, side) : null,
    'x-oauth-scope': contract.scope,
  };
}

/** `/client/{dataset}/arap/vendor/{id}` for `/arap/:vc/:id` on the vendor side. */
/** `/arap/vendor/{id}` for `/arap/:vc/:id` on the vendor side: relative to the server `{api_url}/client/{dataset}`. */
export function openApiPath(contract: Pick<Contract, 'path'>, side: Side | undefined): string {
  return (side ? contract.path.replace(':vc', side) : contract.path).replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The dataset the reference page fills in until the reader types another: the demo company's (`npm start`). */
export const EXAMPLE_DATASET = 'demo';

const apiUrlVariable = (serverUrl: string) => ({
  default: serverUrl,
  description: 'the public origin of the service (PUBLIC_URL)',
});

interface MetaOperation {
  operationId: string;
  summary: string;
  description: string;
  type: string;
  schema: Json;
  example: unknown;
}

/** Health, readiness and the document itself: at the origin, not under a dataset, without a key. */
function metaPath(serverUrl: string, op: MetaOperation, extra: Json = {}): Json {
  return {
    servers: [
      { url: '{api_url}', description: 'the public origin', variables: { api_url: apiUrlVariable(serverUrl) } },
    ],
    get: {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'OK', content: { [op.type]: { schema: op.schema, example: op.example } } },
        ...extra,
        // no handler refuses anything here, but the HTTP parser refuses oversized headers on every path
        '431': { description: STATUS_MEANING[431], content: { 'application/json': { schema: errorRef } } },
      },
    },
  };
}

export function buildOpenApi(contracts: readonly Contract[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const contract of contracts) {
    assertPublic(contract); // the internal API is the gateway's alone: never in the public document
    for (const side of sidesOf(contract)) {
      const path = openApiPath(contract, side);
      paths[path] ??= {};
      paths[path][contract.method.toLowerCase()] = operation(contract, side, path);
    }
  }
  const statusSchema = (value: string): Json => ({
    type: 'object',
    required: ['status'],
    properties: { status: { const: value } },
  });
  paths['/healthz'] = metaPath(serverUrl, {
    operationId: 'healthz',
    summary: 'Liveness',
    description: 'Answers while the process runs; it does not ask the database.',
    type: 'application/json',
    schema: statusSchema('ok'),
    example: { status: 'ok' },
  });
  paths['/readyz'] = metaPath(
    serverUrl,
    {
      operationId: 'readyz',
      summary: 'Readiness (database reachable)',
      description: 'Answers 200 when the database answers a query, else 503.',
      type: 'application/json',
      schema: statusSchema('ready'),
      example: { status: 'ready' },
    },
    {
      '503': {
        description: 'database not reachable',
        content: {
          'application/json': {
            schema: errorRef,
            example: { error: { code: 'unavailable', message: 'The database is not reachable.' } },
          },
        },
      },
    },
  );
  paths['/openapi.json'] = metaPath(serverUrl, {
    operationId: 'openapi',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the REST API, built from the endpoint contracts.',
    type: 'application/json',
    schema: {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
    },
    example: { openapi: '3.1.0', info: { title: 'Ledger REST API', version: '1.0.0' }, paths: {} },
  });
  paths['/docs'] = metaPath(serverUrl, {
    operationId: 'docs',
    summary: 'This document rendered as a reference page',
    description: 'The API reference (HTML), rendered in the browser from /openapi.json.',
    type: 'text/html',
    schema: { type: 'string' },
    example: '<!doctype html>\n<html lang="en">…</html>',
  });

  const tags = [
    ...new Set(
      Object.values(paths).flatMap((p) => Object.values(p).flatMap((o) => (o as { tags?: string[] }).tags ?? [])),
    ),
  ];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledger REST API',
      version: '1.0.0',
      description:
        'Key-based REST API of the ledger. Every path is under {api_url}/client/{dataset} (the server); send the API ' +
        'key in X-API-Key. Errors: {"error": {"code", "message", "field"}} where field is a JSON pointer to the ' +
        'field at fault. `x-permission` names the role permission an operation needs; `x-oauth-scope` the scope an ' +
        'AI connection needs.',
      // whoever runs this ledger answers for it; its reference is the place to start
      contact: { name: 'The operator of this ledger', url: `${serverUrl}/docs` },
      // no licence is granted: SPDX's form for a licence of one's own
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: '{api_url}/client/{dataset}',
        description: "one company's REST API",
        variables: {
          api_url: apiUrlVariable(serverUrl),
          dataset: { default: EXAMPLE_DATASET, description: "the company's dataset name (the demo company's is demo)" },
        },
      },
    ],
    security: [{ apiKey: [] }],
    tags: tags.map((name) => {
      const description = TAG_DESCRIPTIONS[name];
      if (!description) throw new Error(`OpenAPI: no description for the tag ${name} (TAG_DESCRIPTIONS)`);
      return { name, description };
    }),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'API key (ak_...), tied to one dataset',
        },
      },
      schemas: { Error: errorBodySchema },
    },
  };
}
