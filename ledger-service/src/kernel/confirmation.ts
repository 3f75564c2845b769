/**
 * The person's confirmation of an assistant's write, enforced where the money is
 * (docs/mcp.md "Confirmation"). A write whose contract declares that it posts, pays, sends
 * or deletes (`Contract.effect`), made by an AI connection, runs only with a valid
 * confirmation token, unless the company lets AI connections act without one
 * (`ai_may_post_without_confirmation`). API keys (integrations), the app and the CLI are
 * people or their programs, not assistants: their writes are never held.
 *
 * The write runs first, in its own transaction, with the very rules of the posting. Then:
 *
 * - it did nothing that needs confirming (a draft of a `draftable` posting): it stands;
 * - it carries a valid token: the token is taken (db/confirmations.ts) in the same
 *   transaction, so it confirms this one write only, and the write stands;
 * - otherwise the transaction is rolled back and the answer is 428 `confirmation_required`
 *   with a `preview` of what the write would have done (gross, net, tax, currency, party,
 *   accounts: the ledger's own figures, nothing written) and a new token for exactly this
 *   write. The gateway shows the preview to the person and, when they say yes, sends the
 *   same request again with the token.
 *
 * A token is a MAC (a key derived from the ledger's encryption key) over the moment it was
 * issued and what it binds: the company, the connection (the service credential's `conn`),
 * the tool (X-Assistant-Tool), the method, the path with its query and the canonical JSON
 * body. It is valid for 10 minutes (CONFIRMATION_TTL_MS). Why a MAC and not a row per
 * preview: the refusal rolls its transaction back, and a row written beside it would need a
 * second connection per refused write; only used tokens are kept, keyed by their hash.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import {
  ASSISTANT_TOOL_HEADER,
  CONFIRMATION_TOKEN_HEADER,
  CONFIRMATION_TTL_MS,
  money,
  requestsPosting,
  sidesOf,
  type ConfirmationPreview,
  type Contract,
  type TransactionInput,
} from '@ledger/shared';
import { canonicalJson } from '@ledger/shared/canonicalJson';
import type { Db, Tx } from '../db/knex.ts';
import type { Company } from '../db/companies.ts';
import { takeConfirmation } from '../db/confirmations.ts';
import type { Actor } from '../domain/actor.ts';
import { ConfirmationRequired } from '../domain/errors.ts';

type Handle = (tx: Tx) => Promise<unknown>;

/** What a read route's handler gets when the preview reads a write's subject (a kernel RouteRequest). */
export interface SubjectRequest {
  ctx: Context;
  tx: Tx;
  db: Db;
  company: Company;
  actor: Actor;
  params: Readonly<Record<string, string>>;
  body: undefined;
  query: Record<string, unknown>;
  prepared: undefined;
  bodyType: undefined;
}

/** A read route (kernel/route.ts Route), by which a preview reads what a write made or changes. */
export interface SubjectRead {
  contract: Contract;
  handle(req: SubjectRequest): Promise<unknown>;
}

/** Why a write's token does not confirm it. */
type Unconfirmed = 'missing' | 'invalid' | 'expired' | 'used';

const WHY: Record<Unconfirmed, string> = {
  missing: 'needs the confirmation of the person behind the AI connection',
  invalid: 'carries a confirmation that is not for this connection, tool and request',
  expired: 'carries a confirmation older than 10 minutes',
  used: 'carries a confirmation that was already used',
};

const TOKEN = /^ac1\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export class AssistantConfirmations {
  readonly #key: Buffer;
  /** the single-record read routes, by their path with the side written out, as patterns */
  readonly #reads: { pattern: RegExp; side: string | undefined; read: SubjectRead }[] = [];
  #db: Db | undefined;

  constructor(
    encryptionKey: Buffer,
    /** the clock tokens are issued and checked by (tests move it) */
    private readonly now: () => number = Date.now,
  ) {
    this.#key = createHmac('sha256', encryptionKey).update('assistant-confirmation/1').digest();
  }

  /** Learns the read routes a preview reads a write's subject with (kernel/route.ts mountRoutes). */
  learnReads(routes: readonly SubjectRead[], db: Db): void {
    this.#db = db;
    for (const read of routes) {
      const c = read.contract;
      if (c.method !== 'GET' || c.list || c.download || c.query) continue;
      for (const side of sidesOf(c)) {
        const path = side ? c.path.replace(':vc', side) : c.path;
        const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+)');
        this.#reads.push({ pattern: new RegExp(`^${source}$`), side, read });
      }
    }
  }

  /**
   * The record a write makes or changes, as a read of it answers inside the write's
   * transaction: what a 201 created (its `location`), else the record at the write's path
   * or, for an action (`…/approve`, `…/email`), at the path above it. Undefined without one.
   */
  private async subject(
    ctx: Context,
    contract: Contract,
    who: { company: Company; actor: Actor },
    tx: Tx,
    result: unknown,
  ): Promise<unknown> {
    const dataset = /^\/client\/[^/]+/.exec(ctx.path)?.[0] ?? '';
    const own = ctx.path.slice(dataset.length);
    const created =
      contract.location && isObject(result)
        ? contract.location
            .replace(/:(\w+)/g, (_, name: string) => String((ctx.params as Record<string, string>)[name] ?? ''))
            .replace(/\{(\w+)\}/g, (_, field: string) => encodeURIComponent(String(result[field] ?? '')))
        : undefined;
    for (const path of created ? [created] : [own, own.replace(/\/[^/]+$/, '')]) {
      for (const { pattern, side, read } of this.#reads) {
        const m = pattern.exec(path);
        if (!m || !this.#db) continue;
        const params = { ...m.groups, ...(side ? { vc: side } : {}) };
        try {
          return await read.handle({
            ctx,
            tx,
            db: this.#db,
            ...who,
            params,
            body: undefined,
            query: {},
            prepared: undefined,
            bodyType: undefined,
          });
        } catch {
          return undefined;
        }
      }
    }
    return undefined;
  }

  /**
   * The route's handler as a write of `contract` by `actor` must run: unchanged for anyone but
   * an AI connection, for a contract without a confirmed effect, and where the company allows
   * it; else held as the file header says. kernel/route.ts calls it once per request.
   */
  guard(ctx: Context, contract: Contract, who: { company: Company; actor: Actor }, handle: Handle): Handle {
    const { effect } = contract;
    const { via } = who.actor;
    if (via.kind !== 'ai_connection' || !effect || effect === 'none') return handle;
    if (who.company.settings.ai_may_post_without_confirmation === true) return handle;
    const tool = ctx.get(ASSISTANT_TOOL_HEADER);
    const binding = bindingOf(who.company.id, via.id, tool, ctx);
    const token = ctx.get(CONFIRMATION_TOKEN_HEADER);
    return async (tx) => {
      // what a deletion removes is read before it is gone
      const before = contract.method === 'DELETE' ? await this.subject(ctx, contract, who, tx, undefined) : undefined;
      const result = await handle(tx);
      if (effect === 'posts' && contract.draftable && !postsAnything(contract, ctx.request.body, result)) return result;
      const checked = this.check(token, binding);
      const why =
        'expiresAt' in checked
          ? (await takeConfirmation(tx, {
              companyId: who.company.id,
              tokenHash: createHash('sha256').update(token).digest('base64url'),
              connectionId: via.id,
              tool,
              expiresAt: checked.expiresAt,
            }))
            ? undefined
            : 'used'
          : checked.why;
      if (!why) return result;
      const subject = before ?? (await this.subject(ctx, contract, who, tx, result)) ?? result;
      throw new ConfirmationRequired(
        `This write ${WHY[why]}: ask the person with the preview, then send it again with the new confirmation.`,
        previewOf(effect, subject),
        this.issue(binding),
      );
    };
  }

  /** A new token for `binding`, issued now. */
  issue(binding: string): { token: string; expires_at: string } {
    const issued = this.now();
    return {
      token: `ac1.${issued.toString(36)}.${this.mac(issued, binding)}`,
      expires_at: new Date(issued + CONFIRMATION_TTL_MS).toISOString(),
    };
  }

  /** Whether `token` confirms `binding` now: when it expires, or why not. */
  check(token: string, binding: string): { expiresAt: Date } | { why: Unconfirmed } {
    if (!token) return { why: 'missing' };
    const m = TOKEN.exec(token);
    if (!m) return { why: 'invalid' };
    const issued = Number.parseInt(m[1]!, 36);
    const expected = Buffer.from(this.mac(issued, binding));
    const given = Buffer.from(m[2]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { why: 'invalid' };
    const expiresAt = issued + CONFIRMATION_TTL_MS;
    return this.now() >= expiresAt ? { why: 'expired' } : { expiresAt: new Date(expiresAt) };
  }

  private mac(issued: number, binding: string): string {
    return createHmac('sha256', this.#key).update(`${issued}\n${binding}`).digest('base64url');
  }
}

/** What a token binds: the company, the connection, the tool and the exact request (method, path, query, body). */
export function bindingOf(companyId: number, connectionId: string, tool: string, ctx: Context): string {
  const request = [ctx.method, ctx.path, ctx.querystring, canonicalJson(ctx.request.body ?? null)];
  return createHash('sha256')
    .update(JSON.stringify([companyId, connectionId, tool, ...request]))
    .digest('base64url');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Whether the contract's body takes `dry_run` (a dunning run). */
function takesDryRun(contract: Pick<Contract, 'body'>): boolean {
  const body = contract.body;
  return isObject(body) && isObject(body.properties) && 'dry_run' in body.properties;
}

/**
 * A draftable write posts when its body, a document of its batch, or its answer says so; a dry
 * run never does. A write that can run dry (a dunning run: reminders sent, fees booked) posts
 * unless it is a dry run or its answer lists nothing done (`items: []`).
 */
function postsAnything(contract: Pick<Contract, 'body'>, body: unknown, result: unknown): boolean {
  // a dry run (a dunning proposal) only reads
  if (isObject(body) && body.dry_run === true) return false;
  if (takesDryRun(contract)) return !(isObject(result) && Array.isArray(result.items) && result.items.length === 0);
  const asks = (v: unknown) => isObject(v) && requestsPosting(v as Pick<TransactionInput, 'pending'>);
  if (asks(body)) return true;
  if (isObject(body) && Array.isArray(body.transactions) && body.transactions.some(asks)) return true;
  if (isObject(body) && asks(body.overrides)) return true;
  return isObject(result) && result.status === 'posted';
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
const decimal = (v: unknown): string | undefined =>
  typeof v === 'number' || (typeof v === 'string' && v !== '') ? money(v).toFixed(2) : undefined;

/**
 * What the person is shown, read from the answer the write would have given: a document's
 * gross, net, tax, party and the accounts it books; a journal entry's debits; a payment's
 * amount. Fields the answer lacks are left out; the answer itself goes along.
 */
export function previewOf(
  effect: Exclude<Contract['effect'], 'none' | undefined>,
  answer: unknown,
): ConfirmationPreview {
  const preview: ConfirmationPreview = { effect };
  if (!isObject(answer)) return preview;
  const lines = Array.isArray(answer.lines) ? answer.lines.filter(isObject) : [];
  const postings = Array.isArray(answer.postings) ? answer.postings.filter(isObject) : [];
  const taxes = Array.isArray(answer.taxes) ? answer.taxes.filter(isObject) : [];
  const gross =
    decimal(answer.grossAmount) ??
    decimal(answer.totalDebit) ??
    decimal(answer.amount) ??
    (lines.some((l) => 'debit' in l)
      ? lines.reduce((sum, l) => sum.plus(money(Number(l.debit ?? 0))), money(0)).toFixed(2)
      : undefined);
  const net = decimal(answer.netAmount);
  const tax = decimal(answer.taxAmount) ?? (gross && net ? money(gross).minus(net).toFixed(2) : undefined);
  const currency = text(answer.currency) ?? text(answer.curr);
  // a bank line (book_bank_transaction): its counterparty, the account or document it is booked to
  const bookedDocument = isObject(answer.document) ? text(answer.document.number) : undefined;
  const bankLineAccount: Record<string, unknown>[] =
    'counterparty' in answer && text(answer.account) ? [{ account: answer.account }] : [];
  const party =
    text(answer.name) ?? text(answer.vendor_name) ?? text(answer.customer_name) ?? text(answer.counterparty);
  const number = text(answer.documentNumber) ?? text(answer.invNumber) ?? text(answer.reference) ?? bookedDocument;
  const date = text(answer.invDate) ?? text(answer.transdate) ?? text(answer.date);
  const accounts = [
    ...new Set(
      [...postings, ...lines, ...taxes, ...bankLineAccount]
        .map((l) => text(l.account) ?? text(l.taxAccount))
        .filter((a): a is string => a !== undefined),
    ),
  ];
  return {
    ...preview,
    ...(gross !== undefined ? { gross } : {}),
    ...(net !== undefined ? { net } : {}),
    ...(tax !== undefined ? { tax } : {}),
    ...(currency ? { currency } : {}),
    ...(party ? { party } : {}),
    ...(number ? { number } : {}),
    ...(date ? { date } : {}),
    ...(accounts.length > 0 ? { accounts } : {}),
    answer,
  };
}
