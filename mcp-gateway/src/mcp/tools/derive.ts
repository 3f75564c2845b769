/**
 * Everything a tool takes from the contract it names: the REST call (`:vc` resolved to the
 * tool's side), the input schema (path ids + query for GET/DELETE, path ids + body for POST,
 * minus the fields the tool fixes) and the output schema (the contract's response; list
 * answers wrapped under the tool's `listKey`, as structuredContent must be an object;
 * without the shared custom formats, see formats.ts).
 *
 * A declaration that does not fit its contract (missing contract, side, scope or permission
 * that does not match) throws here, at start-up, naming the tool.
 */
import {
  errorBodySchema,
  findContract,
  forSide,
  idSchema,
  isPerSide,
  PERMISSIONS,
  scopeSatisfied,
  SIDES,
  vcSchema,
  type Contract,
  type Permission,
} from '@ledger/shared';
import { toolScope, type ObjectSchema, type ResolvedTool, type RestCall, type ToolDeclaration } from './declare.ts';
import { withoutSharedFormats } from './formats.ts';
import { isRecord } from './isRecord.ts';

function isObjectSchema(v: unknown): v is ObjectSchema {
  return isRecord(v) && v.type === 'object' && isRecord(v.properties);
}

/** The `:name` segments of a contract path that the input fills (`:vc` is the tool's side). */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!).filter((name) => name !== 'vc');
}

class ToolDeclarationError extends Error {
  constructor(tool: string, why: string) {
    super(`MCP tool ${tool}: ${why}`);
    this.name = 'ToolDeclarationError';
  }
}

/** The `vc` input of a tool that serves both sides (sideInInput). */
const SIDE_INPUT = {
  ...vcSchema,
  description: 'vendor (bills, payables) or customer (invoices, receivables)',
} as const;

/**
 * A tool whose input names the side: a `:vc` contract, both sides' permissions known, the same schemas on both sides.
 */
function checkBothSides(c: Contract, fail: (why: string) => Error): void {
  if (!c.path.includes(':vc')) throw fail(`${c.name} has no :vc path; the side cannot come from the input`);
  for (const side of SIDES) {
    const permission = c.permission === null ? null : forSide(c.permission, side);
    if (permission !== null && !(PERMISSIONS as readonly Permission[]).includes(permission))
      throw fail(`unknown permission ${permission}`);
  }
  for (const spec of [c.body, c.query, c.response]) {
    if (spec !== undefined && isPerSide(spec) && JSON.stringify(spec.vendor) !== JSON.stringify(spec.customer))
      throw fail(`${c.name}'s schemas differ by side`);
  }
}

function contractOf(d: ToolDeclaration): Contract {
  const contract = typeof d.contract === 'string' ? findContract(d.contract) : d.contract;
  if (!contract) throw new ToolDeclarationError(d.name, `names no contract ${String(d.contract)}`);
  return contract;
}

/** Side, scope, permission and method agree between the declaration and its contract. */
function checkFit(d: ToolDeclaration, c: Contract): void {
  const fail = (why: string) => new ToolDeclarationError(d.name, why);
  if (c.internal) throw fail(`${c.name} is the gateway's own internal API, never a tool`);
  const perSide = c.path.includes(':vc');
  if (perSide && !d.side) throw fail(`${c.name} has a :vc path; declare the side`);
  if (!perSide && d.side) throw fail(`${c.name} has no :vc path; a side makes no sense`);
  if (c.scope === null) throw fail(`${c.name} is not open to AI connections (no scope)`);
  if (!scopeSatisfied([toolScope(d)], c.scope))
    throw fail(`${c.name} needs ${c.scope}, which ${toolScope(d)} does not grant`);
  const permission = c.permission === null ? null : forSide(c.permission, d.side);
  if (permission !== null && !(PERMISSIONS as readonly Permission[]).includes(permission))
    throw fail(`unknown permission ${permission}`);
  if (d.sideInInput) checkBothSides(c, fail);
  if ((d.access === 'read') !== (c.method === 'GET'))
    throw fail(`a ${d.access} tool cannot call ${c.method} ${c.path}`);
  const params = pathParams(c.path);
  for (const name of Object.keys(d.params ?? {}))
    if (!params.includes(name)) throw fail(`${c.path} has no parameter :${name}`);
  // a GET's fixed fields are query parameters (list_unbooked_bank_transactions: status=unmatched)
  if (d.fixedBody && c.method !== 'POST' && c.method !== 'GET') throw fail('fixedBody needs a POST or GET contract');
  // the ledger holds an assistant's write by its contract's effect, and the gateway asks by it (mcp/confirm.ts)
  if (d.access === 'write' && c.effect === undefined)
    throw fail(`${c.name} declares no effect (posts, pays, sends, deletes or none); a write tool's contract must`);
}

function inputSchema(d: ToolDeclaration, c: Contract): ObjectSchema {
  const spec = c.method === 'POST' ? c.body : c.query;
  const source = spec === undefined ? undefined : forSide(spec, d.side);
  if (source !== undefined && !isObjectSchema(source))
    throw new ToolDeclarationError(
      d.name,
      `${c.name}'s ${c.method === 'POST' ? 'body' : 'query'} is not an object schema`,
    );
  const params = pathParams(c.path);
  const fixed = new Set(Object.keys(d.fixedBody ?? {}));
  for (const name of fixed)
    if (!source?.properties[name])
      throw new ToolDeclarationError(d.name, `fixed field ${name} is not in ${c.name}'s body or query`);
  // the contract's schema unchanged where nothing is added or taken away (keeps minProperties and the like)
  if (source && params.length === 0 && fixed.size === 0 && !d.sideInInput) return source;
  const fields = Object.entries(source?.properties ?? {}).filter(([name]) => !fixed.has(name));
  for (const [name] of fields)
    if (params.includes(name)) throw new ToolDeclarationError(d.name, `input field ${name} is also a path parameter`);
  const required = [
    ...(d.sideInInput ? ['vc'] : []),
    ...params,
    ...(source?.required ?? []).filter((name) => !fixed.has(name)),
  ];
  return {
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 ? { required } : {}),
    properties: {
      ...(d.sideInInput ? { vc: SIDE_INPUT } : {}),
      ...Object.fromEntries(params.map((name) => [name, { ...idSchema, description: d.params?.[name] ?? name }])),
      ...Object.fromEntries(fields),
    },
  };
}

function outputSchema(d: ToolDeclaration, c: Contract): ObjectSchema | undefined {
  const response: unknown = c.response === undefined ? undefined : withoutSharedFormats(forSide(c.response, d.side));
  const isList = isRecord(response) && response.type === 'array';
  if (isList !== (d.listKey !== undefined)) {
    throw new ToolDeclarationError(
      d.name,
      isList ? `${c.name} answers a list: declare listKey` : `${c.name} does not answer a list: drop listKey`,
    );
  }
  if (response === undefined) return undefined;
  const answer = isList ? { type: 'object', required: [d.listKey!], properties: { [d.listKey!]: response } } : response;
  if (!isObjectSchema(answer)) throw new ToolDeclarationError(d.name, `${c.name}'s response is not an object schema`);
  // error results carry `{ error }` as structuredContent too, and clients (the v1 SDK's
  // callTool) validate every result's structuredContent against outputSchema; toolError
  // (result.ts) passes the ledger's error body on, so its schema is the ledger's
  return { type: 'object', properties: {}, anyOf: [answer, errorBodySchema] };
}

function restCall(d: Pick<ToolDeclaration, 'side' | 'sideInInput' | 'fixedBody'>, contract: Contract): RestCall {
  return {
    method: contract.method,
    path: d.side && !d.sideInInput ? contract.path.replace(':vc', d.side) : contract.path,
    ...(d.fixedBody ? { fixedBody: d.fixedBody } : {}),
  };
}

/**
 * The input of a tool with two bodies: every field of either (a field both declare
 * differently takes either shape), required what both require, and exactly one of the two
 * required sets (`items` or `lines`), so the call goes to one contract whose own schema the
 * ledger then applies in full.
 */
function unionInput(tool: string, a: ObjectSchema, b: ObjectSchema): ObjectSchema {
  const properties: Record<string, object> = { ...a.properties };
  for (const [name, schema] of Object.entries(b.properties)) {
    const own = properties[name];
    properties[name] =
      own === undefined || JSON.stringify(own) === JSON.stringify(schema) ? schema : { anyOf: [own, schema] };
  }
  const ra = a.required ?? [];
  const rb = b.required ?? [];
  const onlyA = ra.filter((n) => !rb.includes(n));
  const onlyB = rb.filter((n) => !ra.includes(n));
  if (onlyA.length === 0 || onlyB.length === 0)
    throw new ToolDeclarationError(tool, 'the two bodies must each require a field the other does not');
  const shared = ra.filter((n) => rb.includes(n));
  return {
    type: 'object',
    additionalProperties: false,
    ...(shared.length > 0 ? { required: shared } : {}),
    properties,
    oneOf: [{ required: onlyA }, { required: onlyB }],
  };
}

export function resolveTool(d: ToolDeclaration): ResolvedTool {
  const contract = contractOf(d);
  checkFit(d, contract);
  const output = outputSchema(d, contract);
  const input = inputSchema(d, contract);
  const { alternative: _declared, ...declaration } = d;
  if (!d.alternative)
    return { ...declaration, contract, rest: restCall(d, contract), input, ...(output ? { output } : {}) };

  const { field, fixedBody } = d.alternative;
  const { fixedBody: _own, alternative: _alt, ...base } = d;
  const alt: ToolDeclaration = { ...base, contract: d.alternative.contract, ...(fixedBody ? { fixedBody } : {}) };
  const altContract = contractOf(alt);
  checkFit(alt, altContract);
  const altInput = inputSchema(alt, altContract);
  if (!(field in altInput.properties) || field in input.properties) {
    throw new ToolDeclarationError(
      d.name,
      `the alternative's field ${field} must be in ${altContract.name}'s body only`,
    );
  }
  if (JSON.stringify(outputSchema(alt, altContract)) !== JSON.stringify(output)) {
    throw new ToolDeclarationError(d.name, `${contract.name} and ${altContract.name} answer differently`);
  }
  return {
    ...declaration,
    contract,
    rest: restCall(d, contract),
    alternative: { field, contract: altContract, rest: restCall(alt, altContract) },
    input: unionInput(d.name, input, altInput),
    ...(output ? { output } : {}),
  };
}
