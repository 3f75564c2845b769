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
 * `req.auth` (the connection's AuthInfo) is passed through as the adapter does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, McpHandlerRequestOptions } from '@modelcontextprotocol/server';

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

export function toNodeHandler(handler: FetchHandler, opts: { onerror: (err: Error) => void }) {
  return async (
    req: IncomingMessage & { auth?: AuthInfo },
    res: ServerResponse,
    parsedBody: unknown,
  ): Promise<void> => {
    let finished = false;
    const abort = new AbortController();
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    if (res.destroyed) abort.abort();

    let response: Response;
    try {
      response = await handler.fetch(bodylessRequest(req, abort.signal), {
        ...(req.auth !== undefined ? { authInfo: req.auth } : {}),
        ...(parsedBody !== undefined ? { parsedBody } : {}),
      });
    } catch (err) {
      opts.onerror(err instanceof Error ? err : new Error(String(err)));
      response = internalError();
    }

    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    if (response.body === null) {
      finished = true;
      res.writeHead(response.status, headers);
      res.end();
      return;
    }
    if (!isEventStream(response)) {
      const data = Buffer.from(await response.arrayBuffer());
      finished = true;
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
    const closed = new Promise<void>((resolve) =>
      abort.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (abort.signal.aborted) break;
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
    finished = true;
    res.end();
  };
}
