/**
 * The endpoint contract: one declaration per REST endpoint of the ledger, the only registry.
 * The ledger mounts its handlers by contract and checks permission and scope from it; the
 * OpenAPI document, the MCP tools' schemas and REST calls, and the docs tables are derived
 * from the same list (see contracts/index.ts).
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { ErrorCode } from '../errors.ts';
import type { Permission } from '../permissions.ts';
import type { Scope } from '../scopes.ts';

/** PUT only in the internal API (the AI-connections switch); the public API has none. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
import type { Side } from '../schemas/party.ts';
export type { Side };
export const SIDES: readonly Side[] = ['vendor', 'customer'];

/** One value per side, for `:vc` paths whose schema or permission differs by side. */
export interface PerSide<T> {
  readonly vendor: T;
  readonly customer: T;
}

export type SchemaSpec = JSONSchema | PerSide<JSONSchema>;

/** An example call of a contract (its `:vc` side aside). */
export interface ContractExample {
  /** the path's other parameters (`:id`, `:accno`, …): ids of the records the example names */
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** the JSON body; for a `textBody` contract the file's text */
  readonly body?: unknown;
  /** the JSON answer; for a text download (XML) the file's text; none for 204 and binary files */
  readonly response?: unknown;
  /**
   * A download's file per media type of `download` (a report's CSV and PDF, a stored file): the
   * file's text, or its first bytes and `…` for a binary file; the OpenAPI document shows it as
   * that media type's example, and the real answer starts with it (up to the `…`)
   */
  readonly files?: Readonly<Record<string, string>>;
}

export interface Contract {
  /**
   * An endpoint of the ledger's internal API (`/internal/*`, only the gateway calls it;
   * contracts/internal.ts): listed in INTERNAL_CONTRACTS, never in CONTRACTS, and refused by
   * whatever publishes contracts (OpenAPI, endpoint access, MCP tools, docs tables).
   */
  readonly internal?: true;
  /** unique operation name (camelCase): the OpenAPI operationId, the key handlers and MCP tools use */
  readonly name: string;
  readonly method: HttpMethod;
  /**
   * relative to `{base_url}`; `:vc` is vendor|customer (listed once per side), `:accno` an account number, other
   * `:name` segments are integer ids
   */
  readonly path: string;
  /** the operation's title, at most 60 characters: the /docs sidebar and OpenAPI `summary`; per side for `:vc` paths */
  readonly summary: string | PerSide<string>;
  /** what it does and the rules a caller meets, in sentences: the OpenAPI `description` */
  readonly description: string;
  /**
   * One call as an integration makes it: the OpenAPI document shows it as the request's and
   * the answer's example, a test validates it against the schemas and sends it to a real
   * ledger. Per side where the side's fields differ.
   */
  readonly example: ContractExample | PerSide<ContractExample>;
  /** the role permission (shared/src/permissions.ts); per side where it differs; null = any member */
  readonly permission: Permission | PerSide<Permission> | null;
  /** the OAuth scope an AI connection needs; null = not available to AI connections */
  readonly scope: Scope | null;
  /**
   * What a write does that the person behind an AI connection must confirm (docs/mcp.md
   * "Confirmation"): `posts` books to the ledger, `pays` records a payment, `sends` sends mail
   * to a party, `deletes` removes a record; `none` changes data but nothing of that kind. The
   * ledger refuses such a write of an AI connection without a valid confirmation (428
   * `confirmation_required`, kernel/confirmation.ts); every MCP write tool's contract declares it.
   */
  readonly effect?: Effect;
  /**
   * With `effect: 'posts'`: a write that saves a draft posts nothing and needs no confirmation
   * (it posts when the body, or a document of a batch, asks to post, or when its answer is a
   * posted document: an update of a posted document posts it again). A body that takes
   * `dry_run` (a dunning run) posts unless it runs dry or its answer lists nothing done.
   */
  readonly draftable?: true;
  readonly body?: SchemaSpec;
  readonly query?: SchemaSpec;
  /** the JSON answer (absent for 204 and file downloads) */
  readonly response?: SchemaSpec;
  /** success status (default 200) */
  readonly status?: 200 | 201 | 202 | 204;
  /**
   * What a 201 created, relative to `{base_url}`: the answer's `Location` header (absolute)
   * and the OpenAPI document say it, so a client can read what it made without knowing the
   * URL scheme. `:name` is a path parameter of the request (`:vc` the side), `{field}` a field
   * of the answer, e.g. `/arap/vendor/:id/bank_accounts/{id}`. Required with `status: 201`.
   */
  readonly location?: string;
  /** error codes this endpoint can answer besides those every endpoint can (see COMMON_ERRORS) */
  readonly errors: readonly ErrorCode[];
  /** a paged list: `limit`/`offset`/`sort`, X-Total-Count and Link headers */
  readonly list?: true;
  /** ETag / Cache-Control, honours If-None-Match (304) */
  readonly cacheable?: true;
  /**
   * the body may also come as multipart/form-data, read by the kernel as declared here: the JSON in `jsonPart`
   * (none: the file alone) or in one of `jsonPartAliases` (other names still accepted; one JSON part per
   * request), files in `filePart`, no other part
   */
  readonly multipart?: {
    readonly jsonPart?: string;
    readonly jsonPartAliases?: readonly string[];
    readonly filePart: string;
  };
  /** the body is a file of one of these media types (not JSON), up to the file limit; the handler gets its text */
  readonly textBody?: readonly string[];
  // the answer is a file: its bytes, in one of these media types ("*/*": the file's own)
  readonly download?: readonly string[];
}

/** What a write does that needs the person's confirmation when an assistant makes it (Contract.effect). */
export const EFFECTS = ['posts', 'pays', 'sends', 'deletes', 'none'] as const;
export type Effect = (typeof EFFECTS)[number];

/** Declares a contract, keeping its literal types (schemas `as const`) for FromSchema. */
export function contract<const C extends Contract>(c: C): C {
  return c;
}

// --- types derived from the schemas -------------------------------------------------

type FromSpec<S> =
  S extends PerSide<infer T>
    ? T extends JSONSchema
      ? FromSchema<T>
      : never
    : S extends JSONSchema
      ? FromSchema<S>
      : never;

/** (For the wide `Contract` type itself, as the kernel sees every handler: unknown.) */
type IsWide<C> = Contract extends C ? true : false;

export type BodyOf<C extends Contract> =
  IsWide<C> extends true
    ? unknown
    : C['textBody'] extends readonly string[]
      ? string
      : C['body'] extends SchemaSpec
        ? FromSpec<C['body']>
        : undefined;
export type QueryOf<C extends Contract> =
  IsWide<C> extends true ? unknown : C['query'] extends SchemaSpec ? FromSpec<C['query']> : Record<string, never>;
export type ResponseOf<C extends Contract> =
  IsWide<C> extends true ? unknown : C['response'] extends SchemaSpec ? FromSpec<C['response']> : undefined;

/** `{ vc: Side; id: string }` for '/arap/transaction/:vc/:id'. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type ParamsOf<C extends Contract> =
  IsWide<C> extends true
    ? Readonly<Record<string, string>>
    : { readonly [K in ParamNames<C['path']>]: K extends 'vc' ? Side : string };

// --- resolution per side -------------------------------------------------------------

export function isPerSide<T>(v: T | PerSide<T>): v is PerSide<T> {
  return typeof v === 'object' && v !== null && 'vendor' in v && 'customer' in v && Object.keys(v).length === 2;
}

export function forSide<T>(v: T | PerSide<T>, side: Side | undefined): T {
  if (!isPerSide(v)) return v;
  if (!side) throw new Error('a per-side value needs a side');
  return v[side];
}

/** The sides a contract is listed for: both for `:vc` paths, none otherwise. */
export function sidesOf(c: Pick<Contract, 'path'>): readonly (Side | undefined)[] {
  return c.path.includes(':vc') ? SIDES : [undefined];
}

/** "GET /arap/vendor/:id": the contract's key with `:vc` resolved (what the gateway matches tools with). */
export function endpointKey(c: Pick<Contract, 'method' | 'path'>, side?: Side): string {
  return `${c.method} ${side ? c.path.replace(':vc', side) : c.path}`;
}
