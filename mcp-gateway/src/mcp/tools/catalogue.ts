/**
 * The tool catalogue, in the order tools/list shows them: by area (accounting, invoices,
 * contacts, ...), then in declaration order. Each declaration is resolved against its
 * contract at start-up: a tool that does not fit its contract stops the gateway from
 * starting. Its input and output schemas are compiled once, when first used or by
 * warmCatalogue() after the gateway listens: compiling them all is most of the gateway's
 * start-up time, and nothing needs them before the first MCP request.
 */
import {
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/server/validators/ajv';
import {
  AREAS,
  CURRENCY_ON_WRITE_MESSAGE,
  currencyOnWrite,
  forSide,
  ROLES,
  roleHas,
  scopeSatisfied,
  type Role,
} from '@ledger/shared';
import { accountingTools } from './accounting.ts';
import { bankTools } from './bank.ts';
import { contactTools } from './contacts.ts';
import { documentTools } from './documents.ts';
import { invoiceTools } from './invoices.ts';
import { journalTools, journalWriteTools } from './journal.ts';
import { reportTools } from './reports.ts';
import { assetTools, revaluationTools, yearEndTools } from './yearEnd.ts';
import { vatTools } from './vat.ts';
import { toolScope, type ObjectSchema, type ResolvedTool, type ToolDeclaration } from './declare.ts';
import { pathParams, resolveTool } from './derive.ts';
import { SHARED_FORMATS } from './formats.ts';
import { leanField, leanInput, leanOutput } from './lean.ts';
import { namedInputProblem, type AjvInstance } from './inputProblems.ts';

type CompiledSchema = StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;

export interface CatalogueTool {
  declaration: ResolvedTool;
  inputSchema: CompiledSchema;
  /** validates structuredContent of successful calls (the SDK skips error results) */
  outputSchema?: CompiledSchema;
}

/**
 * A schema that validates with the contract's schema (`checked`) and is listed as its lean
 * form (`listed`, lean.ts): tools/list and the SDK's own checks read the JSON from
 * `~standard.jsonSchema`, the validation runs the compiled contract schema.
 */
function listedAs(checked: CompiledSchema, listed: object): CompiledSchema {
  const json = () => listed as Record<string, unknown>;
  return { '~standard': { ...checked['~standard'], jsonSchema: { input: json, output: json } } };
}

function createAjv(): AjvInstance {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const [name, shape] of Object.entries(SHARED_FORMATS)) ajv.addFormat(name, shape);
  return ajv;
}

/** Every declared tool, unresolved (the docs tables and the consistency tests read them too). */
export const DECLARATIONS: readonly ToolDeclaration[] = [
  ...accountingTools,
  ...yearEndTools,
  ...assetTools,
  ...revaluationTools,
  ...journalTools,
  ...reportTools,
  ...journalWriteTools,
  ...vatTools,
  ...invoiceTools,
  ...contactTools,
  ...bankTools,
  ...documentTools,
].sort((a, b) => AREAS.indexOf(a.area) - AREAS.indexOf(b.area));

function assertUnique(tools: readonly ToolDeclaration[]): void {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`duplicate MCP tool ${t.name}`);
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(t.name)) throw new Error(`MCP tool name ${t.name} is not snake_case`);
    seen.add(t.name);
  }
}
assertUnique(DECLARATIONS);

/** `rowsAs` names a read tool of the same area that describes one record. */
function assertRowsAs(tools: readonly ToolDeclaration[]): void {
  for (const t of tools) {
    if (t.rowsAs === undefined) continue;
    const read = tools.find((r) => r.name === t.rowsAs);
    if (!t.listKey || !read || read.access !== 'read' || read.listKey || read.area !== t.area) {
      throw new Error(`MCP tool ${t.name}: rowsAs ${t.rowsAs} must name a read tool of one record in its area`);
    }
  }
}
assertRowsAs(DECLARATIONS);

/**
 * Tool input: `currency` where the input takes `curr` is refused as the ledger refuses it
 * (shared currencyOnWrite), with the ledger's code, message and field, instead of the
 * schema's bare "must NOT have additional properties" that does not say what to send; an
 * unknown field is named, and a date says its format (inputProblems.ts).
 */
class ToolInputValidator implements jsonSchemaValidator {
  constructor(
    private readonly schemas: jsonSchemaValidator,
    private readonly ajv: AjvInstance,
  ) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const check = this.schemas.getValidator<T>(schema);
    return (input) => {
      const field = currencyOnWrite(schema, input);
      if (field)
        return {
          valid: false,
          data: undefined,
          errorMessage: `invalid_currency: ${CURRENCY_ON_WRITE_MESSAGE} (field ${field})`,
        };
      const result = check(input);
      if (result.valid) return result;
      const named = namedInputProblem(this.ajv, schema, input);
      return named ? { valid: false, data: undefined, errorMessage: named } : result;
    };
  }
}

const ajv = createAjv();
const validator = new AjvJsonSchemaValidator(ajv);
const inputValidator = new ToolInputValidator(validator, ajv);
const compile = (schema: ObjectSchema, schemas: jsonSchemaValidator): CompiledSchema =>
  fromJsonSchema<Record<string, unknown>>(schema, schemas);

/**
 * The input schema tools/list shows: the contract's made lean, or for a tool with `inputAs`
 * its path ids and the name of the tool whose input is the rest of the body.
 */
export function listedInput(d: ResolvedTool): object {
  if (!d.inputAs) return leanInput(d.input, referredFields(d));
  const ids = pathParams(d.contract.path);
  return {
    type: 'object',
    description: `${ids.join(', ')} and the fields of ${d.inputAs}`,
    required: ids,
    properties: Object.fromEntries(ids.map((id) => [id, leanInput(d.input.properties[id] ?? {})])),
  };
}

/** The fields a tool's listed input shows by the name of the tool that shows their shape (`fieldsAs`). */
function referredFields(d: Pick<ResolvedTool, 'fieldsAs'>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(d.fieldsAs ?? {}).map(([path, tool]) => [path, `as ${path.split('.').at(-1)} of ${tool}`]),
  );
}

/**
 * The output schema tools/list shows, if any. A write answers the record its read tool
 * describes, and a list with `rowsAs` lists such records: each is described once, on its read
 * tool; a read with `outputAs` answers what that tool answers. Otherwise the answer's shape
 * (anyOf[0]) made lean; a tool error's `{ error }` fits it, as nothing at its top is required.
 */
export function listedOutput(d: ResolvedTool): object | undefined {
  if (d.access !== 'read' || !d.output) return undefined;
  if (d.outputAs) return { type: 'object', description: `as ${d.outputAs} answers` };
  if (d.rowsAs && d.listKey) {
    return {
      type: 'object',
      properties: {
        [d.listKey]: { type: 'array', description: `rows as ${d.rowsAs} answers them`, items: { type: 'object' } },
      },
    };
  }
  return leanOutput(d.output.anyOf?.[0] ?? d.output);
}

/** A resolved tool whose schemas are compiled on first use. */
class LazyTool implements CatalogueTool {
  #input: CompiledSchema | undefined;
  /** null: the tool lists no output schema (decided once: every tool result asks, twice) */
  #output: CompiledSchema | null | undefined;

  constructor(readonly declaration: ResolvedTool) {}

  get inputSchema(): CompiledSchema {
    this.#input ??= listedAs(compile(this.declaration.input, inputValidator), listedInput(this.declaration));
    return this.#input;
  }

  get outputSchema(): CompiledSchema | undefined {
    if (this.#output === undefined) {
      const listed = listedOutput(this.declaration);
      this.#output =
        listed && this.declaration.output ? listedAs(compile(this.declaration.output, validator), listed) : null;
    }
    return this.#output ?? undefined;
  }
}

/**
 * `inputAs` names a write tool of the same area whose input has every body field of this one
 * (the path ids aside), so what tools/list leaves out is what that tool shows.
 */
function assertInputAs(tools: readonly ResolvedTool[]): void {
  for (const t of tools) {
    if (t.inputAs === undefined) continue;
    const other = tools.find((o) => o.name === t.inputAs);
    const ids = pathParams(t.contract.path);
    const missing = Object.keys(t.input.properties).filter(
      (name) => !ids.includes(name) && !(name in (other?.input.properties ?? {})),
    );
    if (other?.access !== 'write' || other.area !== t.area || other.inputAs || missing.length > 0) {
      throw new Error(
        `MCP tool ${t.name}: inputAs ${t.inputAs} must name a write tool of its area taking every body field` +
          `${missing.length ? ` (not ${missing.join(', ')})` : ''}`,
      );
    }
  }
}

/** Whether a person of `role` may call one of the tool's endpoints (so a connection with its scope lists it). */
function roleMayCall(role: Role, t: ResolvedTool): boolean {
  const contracts = t.alternative ? [t.contract, t.alternative.contract] : [t.contract];
  return contracts.some((c) => {
    const permission = c.permission === null ? null : forSide(c.permission, t.side);
    return permission === null || roleHas(role, permission);
  });
}

/** `other` is listed wherever `t` is: the same scope, and every role that may call `t` may call `other`. */
function listedBeside(t: ResolvedTool, other: ResolvedTool): boolean {
  return toolScope(t) === toolScope(other) && ROLES.every((role) => !roleMayCall(role, t) || roleMayCall(role, other));
}

function withoutOutputAs({ outputAs: _outputAs, ...rest }: ResolvedTool): ResolvedTool {
  return rest;
}

/**
 * `fieldsAs` and `outputAs` name a tool of the same kind, listed beside this one for every
 * role, that shows exactly the shape left out here: tools/list loses nothing by the reference.
 */
export function assertReferences(tools: readonly ResolvedTool[]): void {
  const same = (a: unknown, b: unknown) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);
  for (const t of tools) {
    for (const [path, name] of Object.entries(t.fieldsAs ?? {})) {
      const other = tools.find((o) => o.name === name);
      const field = path.split('.').at(-1)!;
      if (
        t.access !== 'write' ||
        other?.access !== 'write' ||
        other.inputAs ||
        other.fieldsAs?.[field] ||
        !listedBeside(t, other) ||
        !same(leanField(t.input, path), leanField(other.input, field))
      ) {
        throw new Error(
          `MCP tool ${t.name}: fieldsAs ${path} must name a write tool listed beside it whose ${field} is listed alike`,
        );
      }
    }
    if (t.outputAs === undefined) continue;
    const other = tools.find((o) => o.name === t.outputAs);
    if (
      other?.access !== 'read' ||
      other.outputAs ||
      !listedBeside(t, other) ||
      !same(listedOutput(withoutOutputAs(t)), listedOutput(other))
    ) {
      throw new Error(
        `MCP tool ${t.name}: outputAs ${t.outputAs} must name a read tool listed beside it answering alike`,
      );
    }
  }
}

const RESOLVED = DECLARATIONS.map(resolveTool);
assertInputAs(RESOLVED);
assertReferences(RESOLVED);

export const CATALOGUE: readonly CatalogueTool[] = RESOLVED.map((declaration) => new LazyTool(declaration));

/**
 * Compiles every tool's schemas in the background, one tool per turn of the event loop, so
 * requests arriving meanwhile wait for one tool's compilation at most. Called once the
 * gateway listens; resolves when all are compiled.
 */
export function warmCatalogue(): Promise<void> {
  warming ??= (async () => {
    for (const tool of CATALOGUE) {
      await new Promise((resolve) => setImmediate(resolve));
      void tool.inputSchema;
      void tool.outputSchema;
    }
  })();
  return warming;
}
let warming: Promise<void> | undefined;

const byName = new Map(CATALOGUE.map((t) => [t.declaration.name, t]));

export function findTool(name: string): CatalogueTool | undefined {
  return byName.get(name);
}

/**
 * The lists toolsForScopes answered, by scope set: every MCP request asks, and connections
 * share a handful of scope sets. Bounded so odd scope strings cannot grow it without end.
 */
const byScopes = new Map<string, readonly CatalogueTool[]>();
const BY_SCOPES_MAX = 1_000;

/** Tools the granted scopes allow, in catalogue order. */
export function toolsForScopes(scopes: readonly string[]): readonly CatalogueTool[] {
  const key = scopes.join(' ');
  let tools = byScopes.get(key);
  if (!tools) {
    tools = Object.freeze(CATALOGUE.filter((t) => scopeSatisfied(scopes, toolScope(t.declaration))));
    if (byScopes.size >= BY_SCOPES_MAX) byScopes.clear();
    byScopes.set(key, tools);
  }
  return tools;
}
