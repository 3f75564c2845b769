/**
 * The schemas tools/list shows, made lean: every connection's assistant reads the whole list
 * before its first question, so each byte there is paid in every conversation (docs/mcp.md
 * "A lean tool list").
 *
 * - Input schemas show the shape to fill in: field names, types, enums, what is required
 *   (`oneOf` of required sets included), date formats. The bounds, lengths, patterns,
 *   `additionalProperties: false` and the field descriptions stay in the contract's schema,
 *   which the gateway validates every call with (catalogue.ts), so an invalid argument is
 *   refused exactly as before, with the message naming the rule it broke.
 * - Output schemas describe what an assistant reads: a record's fields with their types and
 *   enums (an enum without the type all its values have), one level deep (deeper only the
 *   type) — not the checks the ledger made when it wrote the data. The two read shapes of a
 *   document (`oneOf` by `kind`) become one object with the fields of both. Nothing at the top
 *   is `required`, so a tool error's `{ error }` fits the schema too (clients validate every
 *   result's structuredContent).
 * - A sub-schema repeated within one tool's schema is written once under `$defs`; a field whose
 *   shape another tool shows is listed as its type and that tool's name (`leanInput`'s
 *   `referred`, from a declaration's `fieldsAs`).
 *
 * Both are free of what the MCP Inspector's schema lint flags: `type` arrays (written as
 * `anyOf`), schemas that constrain nothing, remote `$ref`s (schemaLint.test.ts).
 */
import { isRecord } from './isRecord.ts';

type Json = unknown;
type Schema = Record<string, Json>;

/** Keywords whose value is a map of name → sub-schema. */
const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs'] as const;
/** Keywords whose value is a list of sub-schemas. */
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf'] as const;
/** Keywords whose value is one sub-schema. */
const ONE_KEYWORDS = ['items', 'not', 'additionalProperties', 'contains', 'propertyNames'] as const;

/**
 * How deep output schemas describe objects: a record's fields (a list's rows count as records); deeper only the type.
 */
export const OUTPUT_DEPTH = 1;

/** Applies `fn` to every direct sub-schema of `schema` (a copy; `schema` is not changed). */
function mapSubschemas(schema: Schema, fn: (s: Json) => Json): Schema {
  const out: Schema = { ...schema };
  for (const key of MAP_KEYWORDS) {
    const map = schema[key];
    if (isRecord(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, s]) => [name, fn(s)]));
  }
  for (const key of LIST_KEYWORDS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map(fn);
  }
  for (const key of ONE_KEYWORDS) {
    const one = schema[key];
    if (isRecord(one)) out[key] = fn(one);
  }
  return out;
}

/** The keywords that constrain only instances of one type. */
const TYPED_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'minProperties',
    'maxProperties',
    'propertyNames',
  ],
  array: ['items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems'],
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

function typeOf(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * `type: [a, b]` written portably: dropped when an `enum` already admits only values of those
 * types, else as `anyOf` of one `type` each (the same instances either way).
 */
function withoutTypeArray(schema: Schema): Schema {
  const { type, ...rest } = schema as Schema & { type?: Json };
  if (!Array.isArray(type)) return schema;
  if (type.length === 1) return { type: type[0], ...rest };
  const fits = (v: Json) => type.some((t) => typeof t === 'string' && isOfType(v, t));
  if (Array.isArray(rest.enum) && rest.enum.every(fits)) return rest;
  // a keyword that only constrains one type's instances goes into that type's branch (the same instances pass)
  const branches = type.map((t) => {
    const branch: Schema = { type: t };
    for (const key of TYPED_KEYWORDS[String(t)] ?? []) if (key in rest) branch[key] = rest[key];
    return branch;
  });
  // what no branch took constrained no instance of the listed types
  for (const key of Object.values(TYPED_KEYWORDS).flat()) delete rest[key];
  if (rest.anyOf === undefined) return { anyOf: branches, ...rest };
  return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { anyOf: branches }] };
}

/** What a listed input schema keeps of a node: the shape an assistant fills in. */
const INPUT_KEYWORDS = new Set([
  'type',
  'properties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'required',
  'format',
]);

/** An input schema for tools/list: the shape to fill in (`format` only for dates, the one an assistant writes). */
function leanInputNode(node: Json): Json {
  if (!isRecord(node)) return node;
  const kept: Schema = {};
  for (const [key, value] of Object.entries(node))
    if (INPUT_KEYWORDS.has(key) && !(key === 'format' && value !== 'date')) kept[key] = value;
  return withoutTypeArray(mapSubschemas(kept, leanInputNode));
}

/** What a listed output schema keeps of a node: its shape. */
const OUTPUT_KEYWORDS = new Set(['type', 'properties', 'items', 'enum', 'const', 'anyOf']);

/** The object variants of a `oneOf`/`anyOf` of objects merged into one object (fields of all). */
function mergedObjects(variants: Schema[]): Schema {
  const properties: Record<string, Json> = {};
  for (const v of variants) {
    for (const [name, s] of Object.entries(isRecord(v.properties) ? v.properties : {})) {
      const seen = properties[name];
      if (seen === undefined) properties[name] = s;
      else if (isRecord(seen) && isRecord(s) && Array.isArray(seen.enum) && Array.isArray(s.enum)) {
        // `kind: transaction` and `kind: invoice` become `kind: transaction | invoice`
        properties[name] = { ...seen, enum: [...new Set([...seen.enum, ...s.enum])] };
      }
    }
  }
  return { type: 'object', properties };
}

/** Whether `value` is an instance of the JSON Schema type `type`. */
function isOfType(value: Json, type: string): boolean {
  return typeOf(value) === type || (typeOf(value) === 'integer' && type === 'number');
}

/**
 * An output field's `type` beside an `enum` of values all of that type says nothing more:
 * the values alone (the same instances; inputs keep it, as some clients' tool calling wants it).
 */
function withoutEnumType(schema: Schema): Schema {
  const { type, ...rest } = schema;
  const values = rest.enum;
  if (typeof type !== 'string' || !Array.isArray(values) || !values.every((v) => isOfType(v, type))) return schema;
  return rest;
}

function leanOutputNode(node: Json, depth = 0): Json {
  if (!isRecord(node)) return node;
  let source: Schema = node;
  const variants = source.oneOf ?? source.anyOf;
  if (Array.isArray(variants) && variants.every((v) => isRecord(v) && v.type === 'object')) {
    // the outer node's own properties (e.g. `kind`) come first, then each variant's
    source = mergedObjects([source, ...(variants as Schema[])]);
  }
  const kept: Schema = {};
  for (const [key, value] of Object.entries(source)) if (OUTPUT_KEYWORDS.has(key)) kept[key] = value;
  // below the fields of a record (a list's rows count as records), only the type
  const level = kept.type === 'object' ? depth + 1 : depth;
  if (level > OUTPUT_DEPTH && (kept.type === 'object' || kept.type === 'array')) return { type: kept.type };
  return withoutEnumType(withoutTypeArray(mapSubschemas(kept, (s) => leanOutputNode(s, level))));
}

/** A pointer-safe `$defs` name for the n-th shared sub-schema. */
const defName = (n: number) => `d${n}`;

/** The sub-schemas (objects) of `schema` in document order, the root excluded. */
function subschemas(schema: Json, found: Schema[] = [], root = true): Schema[] {
  if (!isRecord(schema)) return found;
  if (!root) found.push(schema);
  mapSubschemas(schema, (s) => {
    subschemas(s, found, false);
    return s;
  });
  return found;
}

/**
 * A sub-schema that occurs more than once within `schema` written once under `$defs` and
 * referenced where it occurred (`{ "$ref": "#/$defs/d1" }`), when that is shorter. The
 * largest repeats are taken first; `$ref` beside nothing else means the same in every draft.
 */
export function shareRepeats(schema: Schema): Schema {
  if (schema.$defs !== undefined) return schema;
  const counts = new Map<string, number>();
  for (const s of subschemas(schema)) {
    const text = JSON.stringify(s);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const refLength = JSON.stringify({ $ref: '#/$defs/d00' }).length;
  const repeats = [...counts]
    // n references and one definition (with its name) against n copies
    .filter(([text, n]) => n > 1 && n * text.length > n * refLength + text.length + 8)
    .sort((a, b) => b[0].length - a[0].length)
    .map(([text]) => text);
  if (repeats.length === 0) return schema;
  const defs: Record<string, Json> = {};
  const names = new Map<string, string>();
  const replace = (node: Json): Json => {
    if (!isRecord(node)) return node;
    const text = JSON.stringify(node);
    const name = names.get(text);
    if (name) return { $ref: `#/$defs/${name}` };
    return mapSubschemas(node, replace);
  };
  for (const text of repeats) {
    // a repeat inside a larger one already shared may no longer repeat: count again
    const occurrences = subschemas(replace(schema)).filter((s) => JSON.stringify(s) === text).length;
    if (occurrences < 2) continue;
    const name = defName(names.size + 1);
    names.set(text, name);
  }
  for (const [text, name] of names) defs[name] = mapSubschemas(JSON.parse(text) as Schema, replace);
  const root = mapSubschemas(schema, replace);
  return names.size > 0 ? { ...root, $defs: defs } : schema;
}

/** The field at `path` (`items`, `template.items`) of an object schema, if it has one. */
function fieldAt(schema: Json, path: readonly string[]): Json {
  let node = schema;
  for (const name of path) node = isRecord(node) && isRecord(node.properties) ? node.properties[name] : undefined;
  return node;
}

/** `schema` with the field at `path` replaced by `field`. */
function withField(schema: Schema, [name, ...rest]: readonly string[], field: Json): Schema {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const own = properties[name!];
  const replaced = rest.length === 0 ? field : withField(isRecord(own) ? own : {}, rest, field);
  return { ...schema, properties: { ...properties, [name!]: replaced } };
}

/** What tools/list shows of an input field (`items`, `template.items`): its lean shape; undefined if no such field. */
export function leanField(schema: object, path: string): Json {
  return fieldAt(leanInputNode(schema), path.split('.'));
}

/**
 * The input schema tools/list shows (validation unchanged). `referred` names fields (by path)
 * whose shape another tool shows: they are listed as their type and that text.
 */
export function leanInput<T extends object>(schema: T, referred: Readonly<Record<string, string>> = {}): T {
  let lean = leanInputNode(schema) as Schema;
  for (const [path, text] of Object.entries(referred)) {
    const field = fieldAt(lean, path.split('.'));
    if (!isRecord(field) || typeof field.type !== 'string') throw new Error(`no typed input field ${path}`);
    lean = withField(lean, path.split('.'), { type: field.type, description: text });
  }
  return shareRepeats(lean) as T;
}

/** The output schema tools/list shows: what an assistant reads, with room for `{ error }`. */
export function leanOutput<T extends object>(schema: T): T {
  const root = schema as Schema;
  const fields = isRecord(root.properties) ? Object.values(root.properties) : [];
  // a list's wrapper (`{ bills: [...] }`) is not a record: its rows are
  const listWrapper = fields.length === 1 && isRecord(fields[0]) && fields[0].type === 'array';
  const lean = leanOutputNode(schema, listWrapper ? -1 : 0) as Schema;
  return shareRepeats(lean) as T;
}

/** `schema` with its `$defs` references replaced by what they name (for the tests' comparisons). */
export function expandRefs(schema: Json, defs: Json = isRecord(schema) ? schema.$defs : undefined): Json {
  if (!isRecord(schema)) return schema;
  if (typeof schema.$ref === 'string' && isRecord(defs)) {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    if (name && defs[name] !== undefined) return expandRefs(defs[name], defs);
  }
  const { $defs: _defs, ...rest } = schema;
  return mapSubschemas(rest, (s) => expandRefs(s, defs));
}
