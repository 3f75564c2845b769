import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { CONTRACTS, type Contract } from '@ledger/shared';
import type { LedgerConfig } from '../config.ts';
import { ApiError } from './errors.ts';
import { assertMultipartAccepted, discardUploads, uploadFileName } from './multipart.ts';
import { assertStorableJson } from './validate.ts';

/** What a request body may be: JSON everywhere, multipart where files are uploaded. */
export const ACCEPTED_TYPES = ['application/json', 'multipart/form-data'] as const;
const UNSUPPORTED_TYPE =
  'Send the body as application/json (or multipart/form-data where an endpoint takes files: AR/AP documents, ' +
  'journal entries, the inbox).';

/**
 * Media types some endpoints take as the body itself, a file (contract `textBody`, e.g. a
 * bank statement as application/xml or text/csv): read as text up to the file limit, and
 * accepted only by the endpoints that name the type (assertBodyType, in the route).
 */
const TEXT_TYPES = [...new Set(CONTRACTS.flatMap((c: Contract) => c.textBody ?? []))];

/** The media type of a file sent as the body, per request (set by readBody; read through textBodyType). */
const textBodyTypes = new WeakMap<Context, string>();

/**
 * The media type (without parameters) of a file sent as the request's body, one of the
 * contracts' `textBody` types; undefined for JSON, multipart or no body. A route's handler
 * gets it as `req.bodyType`.
 */
export function textBodyType(ctx: Context): string | undefined {
  return textBodyTypes.get(ctx);
}

/** Methods whose body is read; a body on GET/DELETE is ignored, as before. */
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Reads the request body. Mounted after authentication, so an unauthenticated caller
 * never makes the ledger buffer or parse a body. Every failure while reading a body is
 * the client's: malformed JSON, a body falsely labelled gzip/deflate/br, a broken
 * multipart part all answer 4xx (only file-system errors of the temporary upload files
 * stay server errors). The temporary files of a multipart body are removed when the request
 * ends, answered or refused (the route reads them first, kernel/multipart.ts).
 */
export function readBody(config: LedgerConfig): Middleware {
  const parse = koaBody({
    json: true,
    urlencoded: false,
    text: false,
    multipart: true,
    jsonLimit: config.jsonLimit,
    jsonStrict: true,
    formidable: {
      maxFileSize: config.fileLimit,
      maxFiles: 20,
      maxFields: 50,
      // numbered in body order: the files are handed on in the order they were sent
      filename: uploadFileName,
      // Field parts (no Content-Type) are decoded by formidable with their
      // Content-Transfer-Encoding as a StringDecoder charset: "7bit" throws outside the
      // request (an unhandled rejection), "binary" would read UTF-8 JSON as latin1. By now
      // formidable has already undone the transfer encoding (unknown ones were refused),
      // so the bytes are the text itself: UTF-8 (RFC 7578 §4.4).
      onPart: (part, handle) => {
        if (!part.mimetype) (part as typeof part & FormidablePart).transferEncoding = 'utf-8';
        handle(part);
      },
    },
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH],
    onError: (err: Error) => {
      throw bodyError(err);
    },
  });
  const jsonLimit = config.jsonLimit;
  return async function parseBody(ctx: Context, next: Next) {
    if (!PARSED_METHODS.has(ctx.method)) return next();
    // no body at all; type-is counts `Content-Length: 0` (what fetch sends on an empty POST) as a body
    const length = ctx.request.length;
    if (length === 0) return next();
    if (length !== undefined && length <= jsonLimit && isPlainJson(ctx.req.headers)) {
      const req = ctx.req;
      // usually the whole body is already here (Node's parser gives no more than Content-Length
      // bytes, so this many is all of it): read at once, without listeners and waiting for 'end'
      ctx.request.body = req.readableLength === length ? jsonOf(req.read() as Buffer) : await readJson(req);
      assertStorableJson(ctx.request.body);
      return next();
    }
    if (TEXT_TYPES.length > 0) {
      const textType = ctx.request.is(...TEXT_TYPES);
      if (typeof textType === 'string') {
        ctx.request.body = await readText(ctx, config.fileLimit);
        textBodyTypes.set(ctx, textType);
        return next();
      }
    }
    const type = ctx.request.is(...ACCEPTED_TYPES);
    if (type === null) return next();
    if (type === false)
      throw new ApiError(
        'unsupported_media_type',
        `Unsupported Content-Type "${ctx.get('Content-Type')}". ${UNSUPPORTED_TYPE}`,
      );
    const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
    if (type === 'multipart/form-data' && encoding !== '' && encoding !== 'identity') {
      throw new ApiError(
        'unsupported_media_type',
        'Content-Encoding is supported for application/json bodies only; send multipart bodies uncompressed.',
      );
    }
    try {
      await parse(ctx, async () => {
        // a multipart body's JSON part is checked when it is validated (validateBody)
        if (type === 'application/json') assertStorableJson(ctx.request.body);
        await next();
      });
    } finally {
      await discardUploads(ctx);
    }
  };
}

/**
 * The Content-Types of a JSON body read by `readJson`, as JSON clients send them; any other
 * spelling (parameters, case) takes koa-body's way, which answers it as before.
 */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * A JSON body sent uncompressed and with its length: the common case, read without koa-body's
 * generic way (type-is four times, co-body, inflation, raw-body, bourne: closures, promises
 * and option objects per request). The answers are the same: its length is within the limit
 * (checked before, and Node's parser delivers exactly Content-Length bytes), the text is UTF-8
 * with a leading BOM dropped (whatever charset is named, as co-body reads it), an empty text is
 * `{}`, anything but an object or array, malformed JSON or a `__proto__` key anywhere is "not
 * valid JSON", and a request cut off is "ended early".
 */
function isPlainJson(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON_TYPES.has(type.toLowerCase())) return false;
  const encoding = headers['content-encoding'];
  return encoding === undefined || encoding === 'identity';
}

function readJson(req: IncomingMessage): Promise<JsonBody> {
  return new Promise((resolve, reject) => {
    if (req.readableAborted || req.destroyed) {
      reject(new ApiError('invalid_request', 'The request body ended early.'));
      return;
    }
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      cleanup();
      try {
        resolve(jsonOf(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    };
    const onAborted = () => {
      cleanup();
      reject(new ApiError('invalid_request', 'The request body ended early.'));
    };
    const onError = (err: Error & { code?: string }) => {
      cleanup();
      reject(
        err.code === 'ECONNRESET' ? new ApiError('invalid_request', 'The request body ended early.') : bodyError(err),
      );
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onError);
  });
}

/** A JSON body's bytes as co-body reads them: UTF-8, a leading BOM dropped, strict; a 400 when they are not JSON. */
function jsonOf(bytes: Buffer): JsonBody {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return parseStrictJson(text);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.');
  }
}

/** What JSON.parse gives, as koa-body's declarations type `ctx.request.body`. */
type JsonBody = Context['request']['body'];

/** Allowed whitespace before a strict JSON body's `{` or `[` (RFC 8259), as co-body's strict mode. */
const STRICT_JSON = /^[ \t\n\r]*[[{]/;
/** A character of a key in JSON text: itself or its `\u` escape (hex digits in either case). */
const jsonKeyChar = (c: string) =>
  `(?:${c}|\\\\u${c
    .charCodeAt(0)
    .toString(16)
    .padStart(4, '0')
    .replace(/[a-f]/g, (h) => `[${h.toUpperCase()}${h}]`)})`;
/** A `__proto__` key in the text, also escaped (bourne's test): only then is the parsed value searched. */
const SUSPECT_PROTO = new RegExp(`"${[...'__proto__'].map(jsonKeyChar).join('')}"\\s*:`);

/** co-body's strict JSON with bourne's guard: an object or array, no `__proto__` key at any depth; throws otherwise. */
export function parseStrictJson(text: string): JsonBody {
  if (text === '') return {};
  if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
  const value = JSON.parse(text) as JsonBody;
  if (SUSPECT_PROTO.test(text)) rejectProtoKeys(value);
  return value;
}

function rejectProtoKeys(value: unknown): void {
  let level: object[] = [value as object];
  while (level.length > 0) {
    const next: object[] = [];
    for (const node of level) {
      if (Object.hasOwn(node, '__proto__')) throw new SyntaxError('Object contains forbidden prototype property');
      for (const v of Object.values(node)) if (v !== null && typeof v === 'object') next.push(v as object);
    }
    level = next;
  }
}

/**
 * A text body (a file sent as the body) up to `limit` bytes, decoded with its charset
 * (default UTF-8; invalid bytes are the client's error). Compressed text bodies are refused.
 */
async function readText(ctx: Context, limit: number): Promise<string> {
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new ApiError(
      'unsupported_media_type',
      'Content-Encoding is supported for application/json bodies only; send files uncompressed.',
    );
  }
  const tooLarge = () => new ApiError('payload_too_large', `The file is larger than allowed (${limit} bytes).`);
  if ((ctx.request.length ?? 0) > limit) throw tooLarge();
  const charset = (ctx.request.charset || 'utf-8').toLowerCase();
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new ApiError('unsupported_media_type', `Unsupported charset "${charset}"; send the file as UTF-8.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('invalid_request', 'The request body ended early.');
  }
  try {
    return decoder.decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError('invalid_request', `The file is not valid ${charset} text.`);
  }
}

/**
 * 415 unless the body's type is one the endpoint takes: a file body (text type) only where
 * the contract names it in `textBody`, multipart only where it declares `multipart`, and
 * JSON / multipart not where it takes a file.
 */
export function assertBodyType(ctx: Context, contract: Contract): void {
  const textType = textBodyType(ctx);
  const takes = contract.textBody;
  if (textType !== undefined && !takes?.includes(textType)) {
    throw new ApiError(
      'unsupported_media_type',
      `Unsupported Content-Type "${ctx.get('Content-Type')}". ` +
        `${takes ? `Send the file as ${takes.join(' or ')}.` : UNSUPPORTED_TYPE}`,
    );
  }
  if (takes && textType === undefined) {
    throw new ApiError(
      'unsupported_media_type',
      `Unsupported Content-Type "${ctx.get('Content-Type')}". Send the file as ${takes.join(' or ')}.`,
    );
  }
  assertMultipartAccepted(ctx, contract);
}

/** formidable sets this on every part; its type declarations omit it. */
interface FormidablePart {
  transferEncoding: string;
}

interface BodyReadError {
  status?: number;
  statusCode?: number;
  /** formidable's status */
  httpCode?: number;
  /** raw-body's kind, e.g. entity.too.large */
  type?: string;
  /** set on file-system errors (e.g. ENOSPC writing an upload) */
  syscall?: string;
  message?: string;
}

/** The API error for a failure while reading a body. */
export function bodyError(raw: unknown): unknown {
  if (raw instanceof ApiError) return raw;
  const err = (typeof raw === 'object' && raw !== null ? raw : {}) as BodyReadError;
  if (err.syscall) return raw; // the server's disk, not the client's body
  const status = err.status ?? err.statusCode ?? err.httpCode;
  if (status === 413 || err.type === 'entity.too.large') {
    return new ApiError('payload_too_large', 'The request body is larger than allowed.');
  }
  if (status === 415) {
    // raw-body: unknown charset; inflation: unknown Content-Encoding
    return new ApiError(
      'unsupported_media_type',
      `${err.message ?? 'Unsupported body encoding'}. Supported: Content-Encoding gzip, deflate or br on JSON ` +
        `bodies, charset utf-8.`,
    );
  }
  if (err.type === 'entity.parse.failed' || raw instanceof SyntaxError) {
    return new ApiError('invalid_request', 'The request body is not valid JSON.');
  }
  if (err.type === 'request.aborted') return new ApiError('invalid_request', 'The request body ended early.');
  if (err.httpCode !== undefined) {
    return new ApiError('invalid_request', `The multipart body is malformed: ${err.message ?? 'unreadable part'}.`);
  }
  // e.g. zlib: a body labelled gzip/deflate/br that is not
  return new ApiError(
    'invalid_request',
    'The request body could not be read: it does not match its Content-Encoding or Content-Length.',
  );
}
