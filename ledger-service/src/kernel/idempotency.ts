/**
 * Idempotency keys of POST requests (docs/rest-api.md "Idempotency").
 *
 * A POST with `Idempotency-Key` runs its handler at most once per company, caller and key
 * within 24 h; a repeat of the same request gets the first answer again (same status, body
 * and the headers that matter, plus `Idempotent-Replayed: true`) without writing; the same key
 * with another request is a 409 `conflict`.
 *
 * The key row is inserted in the request's own tenant transaction, before the handler runs,
 * and completed with the answer in the same transaction. So the row and the write it stands
 * for commit together or not at all, and nothing can be left "in progress" by a process that
 * died. A second request with the same key blocks on the row's unique index until the first
 * transaction ends (Postgres wakes it then, whichever replica the two run on), and replays
 * the committed answer; it gives up after `waitMs` with a 409 saying the first is still in
 * progress.
 *
 * What is kept: every answer the handler produced, 2xx and 4xx (a refusal is rolled back to
 * a savepoint, so it wrote nothing, and is recorded as it was answered). 5xx and 429 are
 * not kept: the transaction rolls back with the key row, so a retry runs again. Refusals
 * before the handler (authentication, permission, body validation) are not kept either: they
 * wrote nothing and say the same again.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { preparedQuery, type Tx } from '../db/knex.ts';
import type { Actor } from '../domain/actor.ts';
import { decryptSecret, encryptSecret } from '../domain/secrets.ts';
import { canonicalJson } from '@ledger/shared/canonicalJson';
import { textBodyType } from './body.ts';
import { ApiError, apiErrorBody, toApiError } from './errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key holds: a repeat after this is a new request. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** How long a request waits for another one holding the same key before answering 409. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 10_000;

/** 1–255 printable ASCII characters (space included, but not only spaces). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
/** The answer headers a replay repeats; the rest (request id, dates) belong to each answer. */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'location', 'retry-after', 'allow'] as const;
/** At most once a minute per company and process, expired rows are deleted (they are ignored anyway). */
const PURGE_EVERY_MS = 60_000;

/** One POST with an Idempotency-Key, identified before it runs. */
export interface KeyedRequest {
  key: string;
  caller: string;
  method: string;
  path: string;
  /** SHA-256 (hex) of method, path, query and the canonical body */
  hash: string;
}

/** An answer as kept and replayed. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The Idempotency-Key of a request, or undefined; a malformed one is a 400 naming the header. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const raw = ctx.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  // Node joins repeated headers with ", "; a repeat is then checked as one value
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (!KEY_PATTERN.test(value) || value.trim() === '') {
    throw new ApiError(
      'invalid_request',
      `The ${IDEMPOTENCY_HEADER} header must be 1 to 255 printable ASCII characters.`,
    );
  }
  return value;
}

/**
 * Whose key space a key lives in: an API key's own, or, for an AI connection, its person's
 * (the gateway derives a distinct key per connection and JSON-RPC request).
 */
export function callerOf(actor: Actor): string {
  return actor.via.kind === 'api_key' ? `key:${actor.via.id}` : `user:${actor.userId}`;
}

interface UploadedFile {
  filepath: string;
  originalFilename?: string | null;
  mimetype?: string | null;
}

async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The request's fingerprint: method, path and query, the body as canonical JSON (a file sent
 * as the body: its decoded text and its media type without parameters), and for a multipart
 * body each file part's name, file name, media type and content digest. Not the raw multipart
 * bytes: a client's retry picks a new boundary, which must not make it "another request".
 */
export async function requestHash(ctx: Context): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${ctx.method} ${ctx.path}?${ctx.querystring}\n`);
  // a file sent as the body (a bank statement) is read by its media type: the same text as
  // CSV and as XML are two requests. Only then, so the hash of every other request is as before.
  const textType = textBodyType(ctx);
  if (textType !== undefined) hash.update(`${textType}\n`);
  hash.update(canonicalJson(ctx.request.body ?? null));
  const parts = (ctx.request.files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
  for (const name of Object.keys(parts).sort()) {
    const files = parts[name];
    for (const file of Array.isArray(files) ? files : files ? [files] : []) {
      hash.update(
        `\n${name}\0${file.originalFilename ?? ''}\0${file.mimetype ?? ''}\0${await fileDigest(file.filepath)}`,
      );
    }
  }
  return hash.digest('hex');
}

/** The keyed request of a POST, or undefined without Idempotency-Key. Reads uploads: call before they are consumed. */
export async function keyedRequest(ctx: Context, actor: Actor): Promise<KeyedRequest | undefined> {
  const key = idempotencyKeyOf(ctx);
  if (key === undefined) return undefined;
  return { key, caller: callerOf(actor), method: ctx.method, path: ctx.path, hash: await requestHash(ctx) };
}

interface KeyRow {
  method: string;
  path: string;
  request_hash: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What happened to a keyed request: its handler ran (answer set on ctx or a refusal to throw), or a replay. */
export type KeyedOutcome = { replay: StoredAnswer } | { refusal: unknown } | { ran: true };

export class IdempotencyKeys {
  private readonly lastPurge = new Map<number, number>();

  constructor(
    /** the ledger's AES key: kept answers may carry secrets (a new API key is shown once) */
    private readonly encryptionKey: Buffer,
    private readonly waitMs: number = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  /**
   * Runs `handle` (which writes through the tx it is given and sets the answer on ctx) at most
   * once for `req`, inside the tenant transaction `tx`.
   */
  async run(
    tx: Tx,
    ctx: Context,
    companyId: number,
    req: KeyedRequest,
    handle: (tx: Tx) => Promise<void>,
  ): Promise<KeyedOutcome> {
    const first = await this.claim(tx, companyId, req);
    if (first) return { replay: first };
    try {
      // a savepoint: a refusal of the handler rolls back its writes but keeps the key row
      await tx.transaction(async (sp) => {
        await handle(sp);
        await this.record(sp, companyId, req, await answerOf(ctx));
      });
      return { ran: true };
    } catch (err) {
      const api = toApiError(err);
      // 5xx, 429 and 428 (an assistant's write awaiting the person's confirmation) release the key (the whole
      // transaction rolls back): a retry — the confirmed one — runs again
      if (!api || api.status >= 500 || api.status === 429 || api.status === 428) throw err;
      const body = Buffer.from(JSON.stringify(apiErrorBody(api)));
      const headers = pickHeaders({ ...lowerKeys(api.headers), 'content-type': 'application/json; charset=utf-8' });
      await this.record(tx, companyId, req, { status: api.status, headers, body });
      return { refusal: err };
    }
  }

  /**
   * A look at the key before a route reads its body (prepareBody), for routes whose body is
   * expensive to read (a statement file parsed on a thread): a repeat of a finished request
   * is replayed, and the key used for another request refused, without reading the file
   * again. Read only, in a short transaction of its own; `run` decides for good.
   */
  async peek(tx: Tx, companyId: number, req: KeyedRequest): Promise<StoredAnswer | undefined> {
    const row = (await tx('idempotency_keys')
      .where({ company_id: companyId, caller: req.caller, key: req.key })
      .andWhere('status', '<>', 0)
      .andWhereRaw('created_at >= now() - make_interval(hours => ?)', [IDEMPOTENCY_WINDOW_HOURS])
      .first('method', 'path', 'request_hash', 'status', 'headers', 'body')) as KeyRow | undefined;
    if (!row) return undefined;
    if (row.request_hash !== req.hash) throw reusedKey(row);
    return {
      status: row.status,
      headers: row.headers,
      body: Buffer.from(decryptSecret(row.body, this.encryptionKey), 'base64'),
    };
  }

  /** Sets a kept answer as this request's answer. */
  static replay(ctx: Context, answer: StoredAnswer): void {
    ctx.status = answer.status;
    // headers before the body: Koa only guesses a Content-Type when none is set
    for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
    ctx.set(REPLAYED_HEADER, 'true');
    ctx.body = answer.body.length > 0 ? answer.body : null;
  }

  /**
   * Inserts the key row; undefined when this request owns it now (new, or the old one expired),
   * else the first request's kept answer. Waits (lock_timeout) while another transaction holds
   * an uncommitted row with the same key.
   */
  private async claim(tx: Tx, companyId: number, req: KeyedRequest): Promise<StoredAnswer | undefined> {
    let claimed: boolean;
    try {
      // one statement (CLAIM_SQL)
      const { rows } = await preparedQuery(tx, CLAIM_SQL, [
        `${this.waitMs}ms`,
        companyId,
        req.caller,
        req.key,
        req.method,
        req.path,
        req.hash,
        IDEMPOTENCY_WINDOW_HOURS,
      ]);
      claimed = rows.length === 1;
    } catch (err) {
      if ((err as { code?: string }).code === '55P03') {
        throw new ApiError(
          'conflict',
          `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry it in a moment.`,
        );
      }
      throw err;
    }
    if (claimed) {
      await this.purgeExpired(tx, companyId);
      return undefined;
    }
    const row = (await tx('idempotency_keys')
      .where({ company_id: companyId, caller: req.caller, key: req.key })
      .first('method', 'path', 'request_hash', 'status', 'headers', 'body')) as KeyRow | undefined;
    // the row was there a statement ago and only a 24 h purge deletes rows
    if (!row) throw new Error('idempotency key row vanished');
    if (row.request_hash !== req.hash) throw reusedKey(row);
    return {
      status: row.status,
      headers: row.headers,
      body: Buffer.from(decryptSecret(row.body, this.encryptionKey), 'base64'),
    };
  }

  private async record(tx: Tx, companyId: number, req: KeyedRequest, answer: StoredAnswer): Promise<void> {
    await tx('idempotency_keys')
      .where({ company_id: companyId, caller: req.caller, key: req.key })
      .update({
        status: answer.status,
        headers: JSON.stringify(answer.headers),
        body: encryptSecret(answer.body.toString('base64'), this.encryptionKey),
      });
  }

  private async purgeExpired(tx: Tx, companyId: number): Promise<void> {
    const now = Date.now();
    if (now - (this.lastPurge.get(companyId) ?? 0) < PURGE_EVERY_MS) return;
    this.lastPurge.set(companyId, now);
    await tx.raw(
      `delete from idempotency_keys where company_id = ? and created_at < now() - make_interval(hours => ?)`,
      [companyId, IDEMPOTENCY_WINDOW_HOURS],
    );
  }
}

/**
 * The claim of a key in one statement: the wait limit is set before the insert can wait on the
 * key's index entry, and the caller's own limit put back once the row is ours (a timeout aborts
 * the transaction anyway; a replay only reads and commits). Prepared: every keyed write sends it.
 */
const CLAIM_SQL = `with wait as (select current_setting('lock_timeout') as before, set_config('lock_timeout', ?, true))
  insert into idempotency_keys (company_id, caller, key, method, path, request_hash, status, body)
  select ?, ?, ?, ?, ?, ?, 0, '' from wait
  on conflict (company_id, caller, key) do update
    set method = excluded.method, path = excluded.path, request_hash = excluded.request_hash,
        status = 0, headers = '{}', body = '', created_at = now()
    where idempotency_keys.created_at < now() - make_interval(hours => ?)
  returning set_config('lock_timeout', (select before from wait), true)`;

function reusedKey(row: Pick<KeyRow, 'method' | 'path'>): ApiError {
  return new ApiError(
    'conflict',
    `This ${IDEMPOTENCY_HEADER} was used for another request (${row.method} ` +
      `${row.path.replace(/^\/client\/[^/]+/, '')}, other body) ` +
      `within the last ${IDEMPOTENCY_WINDOW_HOURS} hours; send a new key for a new request.`,
  );
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function pickHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = headers[name];
    if (typeof v === 'string' || typeof v === 'number') out[name] = String(v);
  }
  return out;
}

/** The answer the handler set on ctx, as bytes (a streamed body is read, and ctx answers the bytes instead). */
async function answerOf(ctx: Context): Promise<StoredAnswer> {
  let body: Buffer;
  const b: unknown = ctx.body;
  if (b === undefined || b === null) body = Buffer.alloc(0);
  else if (Buffer.isBuffer(b)) body = b;
  else if (typeof b === 'string') body = Buffer.from(b);
  else if (b instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of b) chunks.push(Buffer.from(chunk as Uint8Array));
    body = Buffer.concat(chunks);
    const type = ctx.response.get('Content-Type');
    ctx.body = body;
    if (type) ctx.set('Content-Type', type);
  } else body = Buffer.from(JSON.stringify(b)); // what Koa sends for an object
  return { status: ctx.status, headers: pickHeaders(ctx.response.headers as Record<string, unknown>), body };
}
