/**
 * Connection-level behaviour both services' HTTP servers share (docs/operations.md,
 * "What counts as a client error"): requests Node's parser refuses before any handler sees
 * them still get the documented JSON error body, and a body a handler abandoned halfway is
 * read into nothing (up to a cap) so the connection stays usable.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody, ErrorCode } from './errors.ts';

/** Node's parser errors (llhttp codes) that have their own status; anything else is a 400. */
const PARSER_REFUSALS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'request_header_fields_too_large', message: 'The request headers are larger than allowed (16 KiB in all).' },
  HPE_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { status: 400, code: 'invalid_request' as ErrorCode, message: 'The request is not valid HTTP/1.1.' };

/** The raw HTTP answer to a request the parser refused; the connection is closed after it. */
export function clientErrorResponse(parserCode: string | undefined): string {
  const { status, code, message } = PARSER_REFUSALS[parserCode ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`;
}

/**
 * Replaces Node's default 'clientError' answer (an empty 400/431) with the JSON error body.
 * Nothing is written when the peer is gone or an answer on this connection already started
 * (raw bytes would then corrupt it); the socket is closed either way.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err.code));
  });
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
export function discardAbandonedBody(req: IncomingMessage, res: ServerResponse, { limit = ABANDONED_BODY_LIMIT }: { limit?: number } = {}): void {
  // before Node's own 'finish' listener: for a body nobody touched, Node would otherwise
  // "dump" it, reading it into nothing without end and without any event to count it by;
  // a 'data' listener marks the body as being read, so Node leaves it to this one
  res.prependOnceListener('finish', () => {
    if (req.complete || req.destroyed) return;
    req.unpipe();
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit) req.socket.destroy();
    });
    // unpipe() paused a body that was being relayed, and a paused body is not read
    req.resume();
  });
}
