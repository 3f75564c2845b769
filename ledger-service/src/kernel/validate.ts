import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { CURRENCY_ON_WRITE_MESSAGE, currencyOnWrite, dateFormatMessage, PATTERN_MEANINGS } from '@ledger/shared';
import { createSchemaAjv } from '@ledger/shared/schemaValidator';
import { ApiError } from './errors.ts';

/** One ajv instance for every request body schema from @ledger/shared. */
const bodyAjv = createSchemaAjv({ allErrors: false, coerceTypes: false, useDefaults: false });

/** Query strings arrive as text; this instance coerces "10" to 10 and fills defaults for query schemas. */
const queryAjv = createSchemaAjv({ allErrors: false, coerceTypes: true, useDefaults: true });

const cache = new WeakMap<object, ValidateFunction>();
const queryCache = new WeakMap<object, ValidateFunction>();

function compiled(instance: Ajv, store: WeakMap<object, ValidateFunction>, schema: object): ValidateFunction {
  let fn = store.get(schema);
  if (!fn) {
    fn = instance.compile(schema);
    store.set(schema, fn);
  }
  return fn;
}

/** JSON pointer and sentence for the first schema violation. */
export function describeAjvError(e: ErrorObject): { field: string; message: string } {
  const base = e.instancePath || '';
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(e.params.additionalProperty);
      return { field: `${base}/${name}`, message: `Field "${name}" is not allowed here.` };
    }
    case 'required': {
      const name = String(e.params.missingProperty);
      return { field: `${base}/${name}`, message: `Field "${name}" is required.` };
    }
    case 'format':
      if (e.params.format === 'date') return { field: base, message: dateFormatMessage(base.slice(1) || 'date') };
      return { field: base, message: `Field "${base.slice(1) || 'body'}" must be a valid ${e.params.format}.` };
    case 'enum':
      return {
        field: base,
        message: `Field "${base.slice(1)}" must be one of ${(e.params.allowedValues as unknown[]).join(', ')}.`,
      };
    case 'pattern': {
      // a pattern the schemas explain in words (a document number's characters) is named by its meaning
      const meaning = PATTERN_MEANINGS[String(e.params.pattern)];
      if (meaning) return { field: base, message: `Field "${base.slice(1)}" ${meaning}.` };
      return { field: base, message: `Field "${base.slice(1) || 'body'}" ${e.message ?? 'is invalid'}.` };
    }
    default:
      return { field: base, message: `Field "${base.slice(1) || 'body'}" ${e.message ?? 'is invalid'}.` };
  }
}

/** A malformed `curr` / `currency` value is reported with the dedicated code (docs/rest-api.md). */
function isCurrencyError(e: ErrorObject): boolean {
  return /\/(curr|currency)$/.test(e.instancePath) && ['pattern', 'format', 'type'].includes(e.keyword);
}

/** Deeper than any request body of the API; bounds the work of every later walk over it. */
export const MAX_JSON_DEPTH = 32;

/** In u-mode a surrogate pair is one code point, so only unpaired halves are category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

const pointerToken = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** A string that needs a closer look: it holds a NUL or a surrogate half (paired or not). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what it looks for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** The refusal of a string that failed SUSPECT: a NUL, or a surrogate half without its pair. */
function refuseString(s: string, field: string, what: string): void {
  if (s.includes('\u0000')) throw new ApiError('invalid_request', `${what} contains a NUL character.`, field);
  if (LONE_SURROGATE.test(s))
    throw new ApiError('invalid_request', `${what} contains an unpaired UTF-16 surrogate (not valid Unicode).`, field);
}

/** Where a value sits in the checked JSON: a chain of keys, written out as a JSON pointer only for a refusal. */
interface At {
  parent: At | undefined;
  key: string;
}

function pointerOf(root: string, at: At | undefined): string {
  const keys: string[] = [];
  for (let a = at; a !== undefined; a = a.parent) keys.push(pointerToken(a.key));
  let path = root;
  for (let i = keys.length - 1; i >= 0; i--) path += `/${keys[i]}`;
  return path;
}

const valueIn = (path: string) => `Field "${path.slice(1) || 'body'}"`;
const nameIn = (path: string) => `The name of field "${path.slice(1)}"`;

/**
 * Refuses what the database cannot store or what would only exhaust the stack later: NUL
 * characters and unpaired surrogates in any string or key, and nesting deeper than
 * MAX_JSON_DEPTH. Run on every JSON body and query before validation, so such input never
 * reaches SQL. The walk recurses at most MAX_JSON_DEPTH deep (a body nested 100,000 deep is
 * refused at that depth, not a stack overflow), and writes a value's path only when it refuses
 * it: the check runs on every write, twice for a JSON body (read, then validated).
 */
export function assertStorableJson(value: unknown, root = ''): void {
  walkStorable(value, root, undefined, 0);
}

function walkStorable(v: unknown, root: string, at: At | undefined, depth: number): void {
  if (typeof v === 'string') {
    if (SUSPECT.test(v)) refuseString(v, pointerOf(root, at), valueIn(pointerOf(root, at)));
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (depth >= MAX_JSON_DEPTH) {
    throw new ApiError('invalid_request', `The value nests deeper than ${MAX_JSON_DEPTH} levels.`, pointerOf(root, at));
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (typeof item === 'string' ? SUSPECT.test(item) : typeof item === 'object' && item !== null)
        walkStorable(item, root, { parent: at, key: String(i) }, depth + 1);
    }
    return;
  }
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    if (SUSPECT.test(key)) {
      const path = pointerOf(root, { parent: at, key });
      refuseString(key, path, nameIn(path));
    }
    const child: unknown = (v as Record<string, unknown>)[key];
    if (typeof child === 'string' ? SUSPECT.test(child) : typeof child === 'object' && child !== null)
      walkStorable(child, root, { parent: at, key }, depth + 1);
  }
}

export function validateBody<T>(schema: object, body: unknown): T {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  assertStorableJson(body);
  // before the schema, which would only call it an unknown field: name the field to send instead
  const misplaced = currencyOnWrite(schema, body);
  if (misplaced) throw new ApiError('invalid_currency', CURRENCY_ON_WRITE_MESSAGE, misplaced);
  const fn = compiled(bodyAjv, cache, schema);
  if (!fn(body)) {
    const first = fn.errors![0]!;
    const { field, message } = describeAjvError(first);
    throw new ApiError(isCurrencyError(first) ? 'invalid_currency' : 'invalid_request', message, field);
  }
  return body as T;
}

export function validateQuery<T>(schema: object, query: Record<string, unknown>): T {
  assertStorableJson(query);
  const copy = { ...query };
  const fn = compiled(queryAjv, queryCache, schema);
  if (!fn(copy)) {
    const { field, message } = describeAjvError(fn.errors![0]!);
    throw new ApiError('invalid_request', message.replace('Field', 'Query parameter'), field);
  }
  return copy as T;
}
