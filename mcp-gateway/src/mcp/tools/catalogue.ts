/**
 * The tool catalogue, in the order tools/list shows them: by area (accounting, invoices,
 * contacts, ...), then in declaration order. Each declaration is resolved against its
 * contract and its input and output schemas are compiled once, at start-up: a tool that
 * does not fit its contract stops the gateway from starting.
 */
import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/server/validators/ajv';
import { AREAS, scopeSatisfied } from '@ledger/shared';
import { accountingTools } from './accounting.ts';
import { bankTools } from './bank.ts';
import { contactTools } from './contacts.ts';
import { documentTools } from './documents.ts';
import { invoiceTools } from './invoices.ts';
import { journalTools, journalWriteTools } from './journal.ts';
import { reportTools } from './reports.ts';
import { toolScope, type ObjectSchema, type ResolvedTool, type ToolDeclaration } from './declare.ts';
import { resolveTool } from './derive.ts';
import { SHARED_FORMATS } from './formats.ts';

type CompiledSchema = StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;

export interface CatalogueTool {
  declaration: ResolvedTool;
  inputSchema: CompiledSchema;
  /** validates structuredContent of successful calls (the SDK skips error results) */
  outputSchema?: CompiledSchema;
}

function createValidator(): AjvJsonSchemaValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const [name, shape] of Object.entries(SHARED_FORMATS)) ajv.addFormat(name, shape);
  return new AjvJsonSchemaValidator(ajv);
}

/** Every declared tool, unresolved (the docs tables and the consistency tests read them too). */
export const DECLARATIONS: readonly ToolDeclaration[] = [
  ...accountingTools, ...journalTools, ...reportTools, ...journalWriteTools, ...invoiceTools, ...contactTools, ...bankTools, ...documentTools].sort(
  (a, b) => AREAS.indexOf(a.area) - AREAS.indexOf(b.area),
);

function assertUnique(tools: readonly ToolDeclaration[]): void {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`duplicate MCP tool ${t.name}`);
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(t.name)) throw new Error(`MCP tool name ${t.name} is not snake_case`);
    seen.add(t.name);
  }
}
assertUnique(DECLARATIONS);

const validator = createValidator();
const compile = (schema: ObjectSchema): CompiledSchema => fromJsonSchema<Record<string, unknown>>(schema, validator);

export const CATALOGUE: readonly CatalogueTool[] = DECLARATIONS.map(resolveTool).map((declaration) => ({
  declaration,
  inputSchema: compile(declaration.input),
  ...(declaration.output ? { outputSchema: compile(declaration.output) } : {}),
}));

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
