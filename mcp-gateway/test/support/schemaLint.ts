/**
 * The checks the official MCP Inspector's CLI runs on a tools/list answer (its schema
 * portability lint, `--strict` fails on any finding), written out for the tests: the
 * Inspector itself is not a dependency of this repository (it brings a web UI, a terminal UI
 * and a native keyring module). The rules, as the Inspector 2.x applies them to each tool's
 * `inputSchema` and `outputSchema`, every sub-schema included:
 *
 * - boolean-schema (error): a bare `true`/`false` where a schema object is expected
 *   (allowed only under additionalProperties, unevaluatedProperties, additionalItems,
 *   unevaluatedItems);
 * - type-union (warning): `type` given as an array of types;
 * - remote-ref (warning): a `$ref` that does not start with `#` (without embedded `$id`s);
 * - untyped-schema (warning): a schema with no constraining keyword (outside `not`).
 */

const BOOLEAN_VALUED = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
]);
const ONE = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);

export interface Finding {
  rule: 'boolean-schema' | 'type-union' | 'remote-ref' | 'untyped-schema';
  path: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(node: unknown, path: string, keyword: string | undefined, out: Finding[]): void {
  if (typeof node === 'boolean') {
    if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) out.push({ rule: 'boolean-schema', path });
    return;
  }
  if (!isRecord(node)) return;
  if (Array.isArray(node.type)) out.push({ rule: 'type-union', path });
  if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#'))
    out.push({ rule: 'remote-ref', path });
  const constrains =
    Object.keys(node).some((k) => CONSTRAINING.has(k)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') out.push({ rule: 'untyped-schema', path });
  for (const key of MAPS) {
    const map = node[key];
    if (isRecord(map)) for (const [name, sub] of Object.entries(map)) walk(sub, `${path}.${key}.${name}`, key, out);
  }
  for (const key of LISTS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    list.forEach((sub, i) => {
      walk(sub, `${path}.${key}[${i}]`, key, out);
    });
  }
  for (const key of ONE) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === 'items' && Array.isArray(value)) {
      value.forEach((sub, i) => {
        walk(sub, `${path}.items[${i}]`, key, out);
      });
    } else walk(value, `${path}.${key}`, key, out);
  }
}

/** The Inspector's findings for one tool of a tools/list answer. */
export function lintTool(tool: { name: string; inputSchema?: unknown; outputSchema?: unknown }): Finding[] {
  const out: Finding[] = [];
  if (tool.inputSchema !== undefined) walk(tool.inputSchema, `${tool.name}.inputSchema`, undefined, out);
  if (tool.outputSchema !== undefined) walk(tool.outputSchema, `${tool.name}.outputSchema`, undefined, out);
  return out;
}
