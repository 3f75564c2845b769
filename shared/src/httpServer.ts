/**
 * Connection-level behaviour both services' HTTP servers share (docs/operations.md,
 * "What counts as a client error"): requests Node's parser refuses before any handler sees
 * them still get the documented JSON error body, and a body a handler abandoned halfway is
 * read into nothing (up to a cap) so the connection stays usable.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody, ErrorCode } from './errors.ts';

/** A request refused before any handler saw it: its status, error code and message. */
export interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
}

/**
 * The JSON body of a refusal. `target` is the request target (path and query) when it is
 * known, so a service whose paths answer in different body shapes (the gateway's OAuth
 * endpoints answer RFC 6749's) can pick the right one; undefined when the refused bytes no
 * longer hold the request line.
 */
export type RefusalBody = (refusal: Refusal, target: string | undefined) => unknown;

/** The API error body: `{"error": {"code", "message"}}`. */
export const errorBody: RefusalBody = ({ code, message }) => ({ error: { code, message } }) satisfies ErrorBody;

/** Headers above this many bytes in all (request target, names and values, as Node's parser counts them) → 431. */
export const HEADER_LIMIT = 16 * 1024;

const HEADERS_TOO_LARGE: Refusal = {
  status: 431,
  code: 'request_header_fields_too_large',
  message: 'The request headers are larger than allowed (16 KiB in all).',
};

/** Node's parser errors (llhttp codes) that have their own status; anything else is a 400. */
const PARSER_REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: HEADERS_TOO_LARGE,
  HPE_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time.' },
};
const MALFORMED: Refusal = { status: 400, code: 'invalid_request', message: 'The request is not valid HTTP/1.1.' };

/** The raw HTTP answer to a request the parser refused; the connection is closed after it. */
export function clientErrorResponse(
  parserCode: string | undefined,
  target?: string,
  body: RefusalBody = errorBody,
): string {
  const refusal = PARSER_REFUSALS[parserCode ?? ''] ?? MALFORMED;
  const json = JSON.stringify(body(refusal, target));
  return (
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(json)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${json}`
  );
}

/**
 * The target of the request line the refused bytes start with (blank lines before it are
 * allowed, RFC 9112 §2.2), or undefined. Node hands over only the chunk it was parsing when
 * it refused, so the request line is there when the request arrived in one read, not when
 * its headers came in several.
 */
export function requestTargetOf(raw: Buffer | undefined): string | undefined {
  if (!raw) return undefined;
  let start = 0;
  while (start < raw.length && (raw[start] === 0x0d || raw[start] === 0x0a)) start++;
  const end = raw.indexOf(0x0a, start);
  if (end < 0) return undefined;
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\S+) HTTP\/\d\.\d\r?$/.exec(raw.subarray(start, end).toString('latin1'))?.[1];
}

/**
 * Replaces Node's default 'clientError' answer (an empty 400/431) with the JSON error body,
 * in the shape `body` gives for the request's target. Nothing is written when the peer is
 * gone or an answer on this connection already started (raw bytes would then corrupt it);
 * the socket is closed either way.
 */
export function answerClientErrors(server: Server, body: RefusalBody = errorBody): void {
  server.on('clientError', (err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    const answering =
      (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err.code, requestTargetOf(err.rawPacket), body));
  });
}

/** The header bytes of a request as Node's parser counts them against its limit: the target, every name and value. */
export function headerBytes(req: IncomingMessage): number {
  // Node hands over the target and the headers as latin1 strings, one character per byte
  let n = req.url?.length ?? 0;
  for (const h of req.rawHeaders) n += h.length;
  return n;
}

/**
 * For a server whose parser takes more header bytes than HEADER_LIMIT (so that the limit is
 * enforced where the request target is known, whichever reads the headers arrived in):
 * answers a request over the limit with 431 in the shape `body` gives for its target, and
 * closes the connection. True when it answered.
 */
export function refuseOversizedHeaders(
  req: IncomingMessage,
  res: ServerResponse,
  body: RefusalBody = errorBody,
): boolean {
  if (headerBytes(req) < HEADER_LIMIT) return false;
  const json = JSON.stringify(body(HEADERS_TOO_LARGE, req.url));
  res.writeHead(HEADERS_TOO_LARGE.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(json);
  return true;
}

/**
 * How much of an abandoned body is read into nothing before the connection is cut: well above
 * any body the services accept (the ledger's JSON limit is 15 MiB by default), so an honest
 * client that sent a body just over a limit still reads the answer on a usable connection,
 * while one streaming without end costs a bounded amount of reading instead of up to Node's
 * request timeout (300 s) of it.
 */
export const ABANDONED_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * A handler that stops reading a body halfway (a body parser refusing it above the limit or
 * when it does not decode) or never reads it (401 before the body) leaves the rest unread on
 * a kept-alive connection, and the next request sent on it (the gateway reuses its
 * connections to the ledger) would wait behind bytes nobody reads. After the answer, the rest
 * is read into nothing up to `limit` bytes; a body still going on after that has its
 * connection destroyed (the answer was already sent, and a client still writing a body
 * cannot send its next request on that connection anyway).
 */
export function discardAbandonedBody(
  req: IncomingMessage,
  res: ServerResponse,
  { limit = ABANDONED_BODY_LIMIT }: { limit?: number } = {},
): void {
  // before Node's own 'finish' listener: for a body nobody touched, Node would otherwise
  // "dump" it, reading it into nothing without end and without any event to count it by;
  // a 'data' listener marks the body as being read, so Node leaves it to this one. A response
  // finishes once, so a plain listener does what a once-listener would; with the default limit
  // it is one function for every request rather than a closure and a once-wrapper per request
  // (this runs on every request both services answer)
  res.prependListener('finish', limit === ABANDONED_BODY_LIMIT ? discardRest : () => discardRestOf(req, limit));
}

/** The 'finish' listener of discardAbandonedBody with the default limit (`this`: the response). */
function discardRest(this: ServerResponse): void {
  discardRestOf(this.req, ABANDONED_BODY_LIMIT);
}

function discardRestOf(req: IncomingMessage, limit: number): void {
  if (req.complete || req.destroyed) return;
  req.unpipe();
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit) req.socket.destroy();
  });
  // unpipe() paused a body that was being relayed, and a paused body is not read
  req.resume();
}
