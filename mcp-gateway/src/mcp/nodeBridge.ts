/**
 * Hands an admitted Node request to the SDK's web-standard handler (`handler.fetch`) and
 * writes its Response back: the part of `toNodeHandler` (@modelcontextprotocol/node) the
 * endpoint needs, without the per-request costs it does not need.
 *
 * - The body was read and parsed by the admission steps; it goes to the SDK as
 *   `parsedBody` (the SDK then never reads the Request's body), so the Request is built
 *   without one: no JSON re-serialisation of the body, no body stream.
 * - A JSON answer (every answer but an SSE stream) is written with one `end` and a
 *   Content-Length, i.e. one socket write, instead of a chunked write plus the terminating
 *   chunk.
 * - An SSE answer streams as the SDK's adapter streams it (backpressure, abort when the
 *   client goes away).
 *
 * The SDK path's stages (serve/) use these parts one by one: the Request, the handler's
 * Response, the Response written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpHandlerRequestOptions } from '@modelcontextprotocol/server';

export interface FetchHandler {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
}

/** Request headers that describe a body the built Request does not carry. */
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

/** The web Request for `req`, without a body (the SDK takes the parsed body separately). */
export function bodylessRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const host = Array.isArray(req.headers.host) ? req.headers.host[0] : req.headers.host;
  return new Request(`http://${host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal,
  });
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

function internalError(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null },
    { status: 500 },
  );
}

/** The client of one Node response: `signal` aborts when it goes away before `finish()`. */
export class NodeClient {
  readonly #abort = new AbortController();
  #finished = false;

  constructor(res: ServerResponse) {
    res.on('close', () => {
      if (!this.#finished) this.#abort.abort();
    });
    if (res.destroyed) this.#abort.abort();
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  finish(): void {
    this.#finished = true;
  }
}

/** Calls the handler; a handler that throws is answered 500 with a JSON-RPC error. */
export async function fetchAnswer(
  handler: FetchHandler,
  request: Request,
  options: McpHandlerRequestOptions,
  onerror: (err: Error) => void,
): Promise<Response> {
  try {
    return await handler.fetch(request, options);
  } catch (err) {
    onerror(err instanceof Error ? err : new Error(String(err)));
    return internalError();
  }
}

/** Writes `response` on `res`: a JSON answer whole with its length, an SSE answer as it streams. */
export async function writeResponse(res: ServerResponse, response: Response, client: NodeClient): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body === null) {
    client.finish();
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (!isEventStream(response)) {
    const data = Buffer.from(await response.arrayBuffer());
    client.finish();
    headers['content-length'] = String(data.length);
    res.writeHead(response.status, headers);
    res.end(data);
    return;
  }

  res.writeHead(response.status, headers);
  let drained: (() => void) | undefined;
  res.on('drain', () => {
    drained?.();
    drained = undefined;
  });
  const { signal } = client;
  const closed = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (signal.aborted) break;
      if (!res.write(chunk))
        await Promise.race([
          new Promise<void>((resolve) => {
            drained = resolve;
          }),
          closed,
        ]);
    }
  } catch {
    // the stream ended early (client gone, server closed): end the answer as it stands
  }
  client.finish();
  res.end();
}
