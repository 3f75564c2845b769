/**
 * The tool catalogue, in the order tools/list shows them: by area (accounting, invoices,
 * contacts, ...), then in declaration order. Input schemas are compiled once at start-up.
 */
import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { Ajv, AjvJsonSchemaValidator, addFormats } from '@modelcontextprotocol/server/validators/ajv';
import { AREAS, scopeSatisfied } from '@ledger/shared';
import { accountingTools } from './accounting.ts';
import { contactTools } from './contacts.ts';
import { invoiceTools } from './invoices.ts';
import { toolScope, type ToolDeclaration } from './declare.ts';

export interface CatalogueTool {
  declaration: ToolDeclaration;
  inputSchema: StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;
}

function createValidator(): AjvJsonSchemaValidator {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // the shared schemas' own formats; their `pattern` already fixes the shape, the ledger checks the code lists
  ajv.addFormat('iso-country', /^[A-Z]{2}$/);
  ajv.addFormat('iso-currency', /^[A-Z]{3}$/);
  return new AjvJsonSchemaValidator(ajv);
}

const declarations: ToolDeclaration[] = [...accountingTools, ...invoiceTools, ...contactTools].sort(
  (a, b) => AREAS.indexOf(a.area) - AREAS.indexOf(b.area),
);

function assertUnique(tools: ToolDeclaration[]): void {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`duplicate MCP tool ${t.name}`);
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(t.name)) throw new Error(`MCP tool name ${t.name} is not snake_case`);
    seen.add(t.name);
  }
}
assertUnique(declarations);

const validator = createValidator();

export const CATALOGUE: readonly CatalogueTool[] = declarations.map((declaration) => ({
  declaration,
  inputSchema: fromJsonSchema<Record<string, unknown>>(declaration.input, validator),
}));

const byName = new Map(CATALOGUE.map((t) => [t.declaration.name, t]));

export function findTool(name: string): CatalogueTool | undefined {
  return byName.get(name);
}

/** Tools the granted scopes allow, in catalogue order. */
export function toolsForScopes(scopes: readonly string[]): CatalogueTool[] {
  return CATALOGUE.filter((t) => scopeSatisfied(scopes, toolScope(t.declaration)));
}
