/**
 * Reads and parses a JSON-RPC request body within bounds, before the MCP SDK sees it: the
 * SDK validates messages recursively, so a message nested thousands deep would overflow its
 * stack ("Maximum call stack size exceeded" → 500). Size is bounded while reading, nesting
 * depth by an iterative scan of the text before it is parsed (no recursion that could
 * itself overflow).
 *
 * A body that has fully arrived is taken from the request's buffer at once, without a
 * promise or the stream's events (most MCP requests: one small JSON message in the packet
 * of its headers, parsed right after them).
 */
import type { IncomingMessage } from 'node:http';
import type { Maybe } from './maybe.ts';

/** Deepest nesting of arrays and objects in one message; the whole message counts. */
export const MAX_JSON_DEPTH = 64;

export class BodyTooLargeError extends Error {}

export class BodyTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`The message is nested deeper than ${maxDepth} levels of arrays and objects.`);
  }
}

export class BodyNotJsonError extends Error {}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  // events rather than `for await`: the async iterator costs a promise and a stream
  // read per chunk, on every MCP request
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(new Error('aborted'));
  return new Promise((resolve, reject) => {
    // the listeners are module-level functions finding their read on the request: no
    // closures made per request, whose events they are (this runs on every MCP request)
    (req as ReadingRequest)[READING] = { chunks: [], size: 0, limit, resolve, reject };
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyError);
    req.on('close', onBodyClose);
  });
}

/** A body being read by readBody: what has arrived, and how its promise settles. */
interface Reading {
  chunks: Buffer[];
  size: number;
  limit: number;
  resolve(body: Buffer): void;
  reject(err: Error): void;
}

const READING = Symbol('body being read');
type ReadingRequest = IncomingMessage & { [READING]?: Reading };

/** Ends the read of `req`'s body: its listeners removed, its promise settled (once). */
function settle(req: ReadingRequest, err?: Error): void {
  const reading = req[READING];
  if (!reading) return;
  req[READING] = undefined;
  req.off('data', onBodyData);
  req.off('end', onBodyEnd);
  req.off('error', onBodyError);
  req.off('close', onBodyClose);
  if (err) reading.reject(err);
  else reading.resolve(reading.chunks.length === 1 ? reading.chunks[0]! : Buffer.concat(reading.chunks, reading.size));
}

function onBodyData(this: ReadingRequest, chunk: Buffer | string): void {
  const reading = this[READING];
  if (!reading) return;
  const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  reading.size += buf.length;
  if (reading.size > reading.limit) {
    settle(this, new BodyTooLargeError());
    this.resume();
    return;
  }
  reading.chunks.push(buf);
}

function onBodyEnd(this: ReadingRequest): void {
  settle(this);
}

function onBodyError(this: ReadingRequest, err: Error): void {
  settle(this, err);
}

/** the client went away before the body was complete */
function onBodyClose(this: ReadingRequest): void {
  settle(this, new Error('aborted'));
}

/**
 * The body when it has fully arrived and nobody reads it yet, taken from the request's buffer
 * at once (no events, no promise); undefined otherwise. Throws BodyTooLargeError beyond `limit`.
 */
export function bufferedBody(req: IncomingMessage, limit: number): Buffer | undefined {
  if (!req.complete || req.readableFlowing || req.readableEnded || req.destroyed) return undefined;
  const declared = Number(req.headers['content-length']);
  if ((Number.isFinite(declared) && declared > limit) || req.readableLength > limit) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk: Buffer | string | null = req.read(); chunk !== null; chunk = req.read()) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    chunks.push(buf);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/**
 * The deepest nesting of `[`/`{` in JSON text, stopping as soon as it passes `max` (brackets
 * inside strings do not count). Works on malformed text too: JSON.parse judges that later.
 */
export function jsonTextDepthExceeds(text: string, max: number): boolean {
  // nesting never goes deeper than the number of opening brackets: most messages have a few,
  // counted by the string's own (native) search, so the scan by character below — a loop over
  // every character, on every MCP request, that V8 runs unoptimised for the first thousands
  // of requests — is needed only for a message with more than `max` of them
  if (occurrences(text, '{', max) + occurrences(text, '[', max) <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** How often `c` occurs in `text` (brackets inside strings too), counted up to `max + 1`. */
function occurrences(text: string, c: string, max: number): number {
  let count = 0;
  for (let i = text.indexOf(c); i >= 0 && count <= max; i = text.indexOf(c, i + 1)) count++;
  return count;
}

/**
 * A JSON body within `maxBytes` and `maxDepth`, parsed; throws (or rejects with) one of the
 * errors above. At once when the body has fully arrived (bufferedBody), else when it has.
 * (Node's parser hands the body to JavaScript in callbacks of its own after the request's
 * headers, with microtasks run in between: a request read as soon as its headers are has it
 * still to come, one read after a wait, e.g. for the token's row on Postgres, usually not.)
 */
export function readJsonBody(req: IncomingMessage, limits: { maxBytes: number; maxDepth?: number }): Maybe<unknown> {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const now = bufferedBody(req, limits.maxBytes);
  if (now !== undefined) return parsedJson(now, maxDepth);
  return readBody(req, limits.maxBytes).then((body) => parsedJson(body, maxDepth));
}

function parsedJson(body: Buffer, maxDepth: number): unknown {
  const text = body.toString('utf8');
  if (jsonTextDepthExceeds(text, maxDepth)) throw new BodyTooDeepError(maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BodyNotJsonError();
  }
}
