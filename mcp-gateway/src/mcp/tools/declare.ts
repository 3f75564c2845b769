/**
 * One declaration per tool: name, area, read or write, and the contract (shared/) of the
 * ledger endpoint it calls. The REST call, the input and output schemas come from that
 * contract (tools/derive.ts); scope, annotations, validation, the REST request, result and
 * error shaping follow from the declaration.
 */
import type { Access, Area, Contract, ContractName, Scope, Side } from '@ledger/shared';
import type { LedgerMethod } from '../types.ts';

/** A JSON Schema for an object, as the shared/ schemas declare them. */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, object>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly minProperties?: number;
  readonly description?: string;
  /** output schemas: the answer's shape or the tool error's */
  readonly anyOf?: readonly object[];
  /** input schemas of tools with an alternative contract: exactly one of the two bodies' required sets */
  readonly oneOf?: readonly object[];
}

export type ToolInput = Readonly<Record<string, unknown>>;

export interface ToolDeclaration {
  name: string;
  title: string;
  description: string;
  area: Area;
  access: Access;
  /** write tools: true when the call may replace or remove existing data, or post to the books */
  destructive?: boolean;
  /** write tools: true when repeating the call with the same input has no further effect */
  idempotent?: boolean;
  /** the ledger endpoint the tool calls: `contracts.getParty` or its name */
  contract: Contract | ContractName;
  /** the side of a `:vc` contract (required there, refused elsewhere) */
  side?: Side;
  /**
   * A `:vc` tool serving both sides (record_payment, aging_report): the input names the side
   * in `vc`; `side` is then the side whose endpoint decides whether a connection sees the tool.
   */
  sideInInput?: true;
  /** descriptions of the path's id parameters in the input (`{ id: 'bill id' }`); default the parameter's name */
  params?: Readonly<Record<string, string>>;
  /**
   * Body fields the tool always sends (e.g. `pending: '0'` to post; for a GET, query parameters). They are left out of
   * the input schema, so an assistant never sees a field whose value it cannot choose.
   */
  fixedBody?: Readonly<Record<string, unknown>>;
  /**
   * A second endpoint the tool calls when the input carries `field` (create_invoice: `items`
   * make an invoice, `lines` an AR transaction). The input schema is the union of the two
   * bodies with exactly one of their required sets; both contracts must answer alike.
   */
  alternative?: { field: string; contract: Contract | ContractName; fixedBody?: Readonly<Record<string, unknown>> };
  /**
   * key wrapping an array result in structuredContent (structured content must be an object); required for list
   * contracts
   */
  listKey?: string;
  /**
   * A list whose rows are the records a read tool answers (list_bills → get_bill): its listed
   * output schema names that tool instead of describing the record again (tools/list is read
   * in every conversation; the record is described once, on its read tool).
   */
  rowsAs?: string;
  /**
   * A write whose body is another write tool's input (update_bill, approve_bill → create_bill):
   * its listed input schema shows the path ids and names that tool for the rest, so the body is
   * described once in tools/list. The input is still validated against the full schema.
   */
  inputAs?: string;
  /**
   * Input fields whose listed shape is exactly that of the same field of another write tool of
   * the area, listed beside it for every role (`{ items: 'create_invoice' }`; a nested field by
   * its path, `'template.items'`): tools/list shows the field's type and names that tool, so the
   * shape is listed once. Checked at start-up (catalogue.ts); the input is validated in full.
   */
  fieldsAs?: Readonly<Record<string, string>>;
  /**
   * A read whose answer has exactly the listed shape of another read tool's of its area, listed
   * beside it for every role (get_bill → get_invoice: the same document read on the other side):
   * its listed output schema names that tool instead of repeating the shape. Checked at start-up.
   */
  outputAs?: string;
  /** the short text returned beside structuredContent */
  summary(result: unknown, input: ToolInput): string;
  /**
   * The resource (mcp/resources.ts) a successful result points to with a `resource_link`,
   * e.g. the PDF or the document's bytes, instead of embedding them. `result` is the JSON
   * answer, or for a file answer `{ name, mediaType, size }`.
   */
  link?(input: ToolInput, result: unknown): ToolLink | undefined;
}

/** A link from a tool result to a resource: its path under `ledger://{dataset}/`. */
export interface ToolLink {
  path: string;
  name: string;
  title?: string;
  mimeType?: string;
  size?: number;
}

/** The REST call a tool makes, resolved from its contract. */
export interface RestCall {
  method: LedgerMethod;
  /**
   * Path relative to `{base_url}` with `:vc` resolved; the other `:name` segments are filled
   * from the input field of that name. Remaining input fields become the query string
   * (GET/DELETE) or the JSON body.
   */
  path: string;
  fixedBody?: Readonly<Record<string, unknown>>;
}

/** A declaration with everything its contract gives it. */
export interface ResolvedTool extends Omit<ToolDeclaration, 'alternative'> {
  contract: Contract;
  rest: RestCall;
  /** the REST call made instead of `rest` when the input carries `field` */
  alternative?: { field: string; contract: Contract; rest: RestCall };
  input: ObjectSchema;
  /** what structuredContent of a successful call looks like; absent for answers without a body */
  output?: ObjectSchema;
}

export function toolScope(tool: Pick<ToolDeclaration, 'area' | 'access'>): Scope {
  return `${tool.area}:${tool.access}`;
}

/** The ledger endpoint key ("GET /arap/vendor/:id") used to match the person's permitted endpoints. */
export function endpointKey(tool: Pick<ResolvedTool, 'rest'> & { side?: Side | undefined }): string {
  // a tool whose input names the side keeps `:vc` in its REST path; its declared side's endpoint stands for it
  return `${tool.rest.method} ${tool.side ? tool.rest.path.replace(':vc', tool.side) : tool.rest.path}`;
}

/** Every endpoint a tool may call: its own and its alternative's. */
export function endpointKeys(tool: Pick<ResolvedTool, 'rest' | 'alternative'>): string[] {
  return tool.alternative ? [endpointKey(tool), endpointKey(tool.alternative)] : [endpointKey(tool)];
}

/** The REST call for this input: the alternative's when the input carries its field. */
export function restCallFor(
  tool: Pick<ResolvedTool, 'rest' | 'alternative'>,
  input: Readonly<Record<string, unknown>>,
): RestCall {
  return tool.alternative && input[tool.alternative.field] !== undefined ? tool.alternative.rest : tool.rest;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * The annotations tools/list shows: a read says only that it reads (the other hints are
 * meaningful only when readOnlyHint is false, as the MCP schema says); the title is the
 * tool's own `title`.
 */
export function listedAnnotations(
  d: Pick<ToolDeclaration, 'access' | 'destructive' | 'idempotent'>,
): Partial<ToolAnnotations> {
  const { title: _title, ...hints } = toolAnnotations({ ...d, title: '' });
  return d.access === 'read' ? { readOnlyHint: true, openWorldHint: false } : hints;
}

/**
 * The MCP annotations (also the docs table's "kind"): reads are idempotent; writes destructive unless declared
 * otherwise.
 */
export function toolAnnotations(
  d: Pick<ToolDeclaration, 'title' | 'access' | 'destructive' | 'idempotent'>,
): ToolAnnotations {
  return {
    title: d.title,
    readOnlyHint: d.access === 'read',
    destructiveHint: d.access === 'write' ? (d.destructive ?? true) : false,
    idempotentHint: d.access === 'read' ? true : (d.idempotent ?? false),
    openWorldHint: false,
  };
}
