/**
 * Every answer of the REST API the test suites receive is checked here against its endpoint's
 * contract (@ledger/shared CONTRACTS), so a read shape can no longer drift from its schema:
 * a 2xx JSON answer against the contract's response schema (per side for `:vc` paths), with
 * the contract's success status; a 4xx/5xx answer against the error body schema. The ledger
 * tests' api client and the end-to-end REST helper call it for every request; a mismatch
 * throws, failing the test that made the request.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { CONTRACTS, errorBodySchema, forSide, sidesOf, type Contract, type Side } from '@ledger/shared';
import { createSchemaAjv } from '@ledger/shared/schemaValidator';
import type { JSONSchema } from 'json-schema-to-ts';

interface Endpoint {
  contract: Contract;
  side: Side | undefined;
  pattern: RegExp;
}

/** '/arap/:vc/:id' for the vendor side → /^\/arap\/vendor\/[^/]+$/ */
function pathPattern(path: string, side: Side | undefined): RegExp {
  const segments = path
    .split('/')
    .map((s) => (s === ':vc' ? side! : s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

const ENDPOINTS: readonly Endpoint[] = CONTRACTS.flatMap((contract) =>
  sidesOf(contract).map((side) => ({ contract, side, pattern: pathPattern(contract.path, side) })),
);

/** The contract (and side) of a request: `path` is relative to `/client/{dataset}`, without the query. */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  return ENDPOINTS.find((e) => e.contract.method === method.toUpperCase() && e.pattern.test(path));
}

/**
 * The schema with every object closed (`additionalProperties: false` where it says nothing):
 * the published schemas leave read shapes open for later additions, but here a field the API
 * answers and its schema does not declare is drift, caught where it starts.
 */
export function closed(schema: object): object {
  const out: Record<string, unknown> = { ...schema };
  // one of several shapes (documents of both kinds): each shape is closed, the common frame stays open
  const variants = (['oneOf', 'anyOf'] as const).filter(
    (k) => k in schema && Array.isArray((schema as Record<string, unknown>)[k]),
  );
  for (const k of variants) out[k] = ((schema as Record<string, unknown>)[k] as object[]).map(closed);
  if ('properties' in schema && typeof schema.properties === 'object' && schema.properties !== null) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, s]) => [name, closed(s as object)]),
    );
    if (variants.length === 0) out.additionalProperties ??= false;
  }
  if ('items' in schema && typeof schema.items === 'object' && schema.items !== null) out.items = closed(schema.items);
  return out;
}

const ajv = createSchemaAjv({ allErrors: true });
const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: JSONSchema): ValidateFunction {
  if (typeof schema === 'boolean') return ajv.compile(schema);
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(closed(schema));
    compiled.set(schema, fn);
  }
  return fn;
}

/** "body/lines/0 must NOT have additional properties (paid)": where, what, and the name at fault. */
function describe(errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => {
      const name = e.params.additionalProperty ?? e.params.missingProperty;
      return `body${e.instancePath} ${e.message ?? e.keyword}${name === undefined ? '' : ` (${String(name)})`}`;
    })
    .join('; ');
}

export interface Answer {
  method: string;
  /** the full URL requested (`…/client/{dataset}/…`); answers outside /client are not checked */
  url: string | URL;
  status: number;
  contentType: string | null;
  /** the parsed JSON, or the text when the answer is not JSON */
  body: unknown;
}

function isJson(contentType: string | null): boolean {
  return /^application\/([a-z.+-]*\+)?json\b/i.test(contentType ?? '');
}

/** Throws (naming the request, the contract and ajv's errors) when the answer breaks the contract. */
export function assertAnswerMatchesContract(answer: Answer): void {
  const match = /^\/client\/[^/]+(\/.*)$/.exec(new URL(answer.url).pathname);
  const method = answer.method.toUpperCase();
  if (!match || method === 'HEAD' || method === 'OPTIONS') return;
  const path = match[1]!;
  const where = `${method} ${path} → ${answer.status}`;
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}\nbody: ${JSON.stringify(answer.body)?.slice(0, 2000)}`);
  };
  const check = (schema: JSONSchema, what: string) => {
    if (!isJson(answer.contentType)) fail(`${what} must be JSON, got ${answer.contentType ?? 'no content type'}`);
    const validate = validatorOf(schema);
    if (!validate(answer.body)) fail(`${what} does not match its schema: ${describe(validate.errors ?? [])}`);
  };

  if (answer.status >= 400) {
    check(errorBodySchema, 'the error body');
    return;
  }
  if (answer.status < 200 || answer.status >= 300) return; // 304 Not Modified: no body
  const endpoint = endpointOf(method, path);
  if (!endpoint) throw fail('a success answer on a path no contract declares');
  const { contract, side } = endpoint;
  const name = side ? `${contract.name} (${side})` : contract.name;
  const expected = contract.status ?? 200;
  if (answer.status !== expected) fail(`contract ${name} answers ${expected}`);
  // a contract with both a JSON answer and file alternatives (the reports' CSV and PDF): a listed file type is not JSON
  const mediaType = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (contract.response && contract.download?.includes(mediaType)) return;
  if (contract.response) check(forSide(contract.response, side), `the answer of ${name}`);
}
