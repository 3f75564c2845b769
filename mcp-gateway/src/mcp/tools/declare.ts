/**
 * One declaration per tool: name, area, read or write, input schema (from shared/), and the
 * REST call it makes. Everything else (scope, annotations, validation, the REST request,
 * result and error shaping) is derived from the declaration.
 */
import type { Area, Scope } from '@ledger/shared';
import type { LedgerMethod } from '../types.ts';

/** A JSON Schema for an object, as the shared/ schemas declare them. */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, object>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly description?: string;
}

export interface RestCall {
  method: LedgerMethod;
  /**
   * Path relative to `{base_url}`; `:name` segments are filled from the input field of that
   * name. Remaining input fields become the query string (GET/DELETE) or the JSON body.
   */
  path: string;
  /** fields always added to the body, overriding the input (e.g. `pending: '0'` to post) */
  fixedBody?: Readonly<Record<string, unknown>>;
}

export interface ToolDeclaration {
  name: string;
  title: string;
  description: string;
  area: Area;
  access: 'read' | 'write';
  /** write tools: true when the call may replace or remove existing data, or post to the books */
  destructive?: boolean;
  /** write tools: true when repeating the call with the same input has no further effect */
  idempotent?: boolean;
  input: ObjectSchema;
  rest: RestCall;
  /** key wrapping an array result in structuredContent (structured content must be an object) */
  listKey?: string;
  /** the short text returned beside structuredContent */
  summary(result: unknown, input: Readonly<Record<string, unknown>>): string;
}

export function toolScope(tool: Pick<ToolDeclaration, 'area' | 'access'>): Scope {
  return `${tool.area}:${tool.access}` as Scope;
}

/** The ledger endpoint key ("GET /arap/vendor/:id") used to match the person's permitted endpoints. */
export function endpointKey(tool: Pick<ToolDeclaration, 'rest'>): string {
  return `${tool.rest.method} ${tool.rest.path}`;
}

/** `{ id, ...fields }`: an update or by-id schema built from a shared write schema. */
export function withId(schema: ObjectSchema, idDescription: string): ObjectSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id', ...(schema.required ?? [])],
    properties: {
      id: { type: 'integer', minimum: 1, description: idDescription },
      ...schema.properties,
    },
  };
}

export function byId(idDescription: string): ObjectSchema {
  return withId({ type: 'object', properties: {} }, idDescription);
}

export const noInput: ObjectSchema = { type: 'object', additionalProperties: false, properties: {} };

// --- summaries -------------------------------------------------------------------

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function countOf(result: unknown): number {
  return Array.isArray(result) ? result.length : 0;
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function idOf(result: unknown, input: Readonly<Record<string, unknown>>): string {
  if (isRecord(result) && (typeof result.id === 'number' || typeof result.id === 'string')) return String(result.id);
  return input.id === undefined ? '?' : String(input.id);
}

export function nameOf(result: unknown): string {
  if (!isRecord(result)) return '';
  const name = result.name ?? result.description ?? result.invnumber ?? result.invNumber;
  return typeof name === 'string' && name ? ` (${name})` : '';
}

export const summaries = {
  list: (noun: string) => (result: unknown) => `Found ${plural(countOf(result), noun)}.`,
  get: (noun: string) => (result: unknown, input: Readonly<Record<string, unknown>>) =>
    `${noun[0]!.toUpperCase()}${noun.slice(1)} ${idOf(result, input)}${nameOf(result)}.`,
  created: (noun: string) => (result: unknown, input: Readonly<Record<string, unknown>>) =>
    `Created ${noun} ${idOf(result, input)}.`,
  updated: (noun: string) => (result: unknown, input: Readonly<Record<string, unknown>>) =>
    `Updated ${noun} ${idOf(result, input)}.`,
};
