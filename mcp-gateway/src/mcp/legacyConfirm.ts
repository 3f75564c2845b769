/**
 * Confirmation for 2025-era clients (confirm.ts): an `elicitation/create` request on the
 * call's own SSE stream, answered by the client's next POST.
 *
 * The SDK serves 2025-era requests statelessly (a server per request, no session), so it can
 * neither know what the client declared at `initialize` nor route the client's answer back
 * to the waiting call. The gateway does both for this one exchange:
 *
 * - `ElicitationClients` remembers, per connection, whether its client declared form-mode
 *   elicitation at its last `initialize` (the gateway sees every initialize it admits);
 * - a single 2025-era `tools/call` of a consequential write from such a client is answered
 *   here: the answer becomes an SSE stream carrying the question, then the result;
 * - `PendingElicitations` hands the client's JSON-RPC response (a POST of the same
 *   connection naming the question's id) to the waiting call.
 *
 * Both live in this process: behind several replicas the answer must reach the replica
 * holding the call (the question's stream is open on it), and a call on a replica that did
 * not see the initialize takes the safe path (a draft) — never a write without the person.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { CallToolResult, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import { isRecord } from './tools/isRecord.ts';

/** How long the person has to answer before the question counts as cancelled. */
export const ELICITATION_TIMEOUT_MS = 10 * 60_000;

/** Per connection: whether its client declared form-mode elicitation at its last initialize. */
export class ElicitationClients {
  readonly #byConnection = new Map<string, boolean>();

  constructor(private readonly max = 10_000) {}

  remember(connectionId: string, elicits: boolean): void {
    this.#byConnection.delete(connectionId);
    if (this.#byConnection.size >= this.max) {
      const oldest = this.#byConnection.keys().next().value;
      if (oldest !== undefined) this.#byConnection.delete(oldest);
    }
    this.#byConnection.set(connectionId, elicits);
  }

  elicits(connectionId: string): boolean {
    return this.#byConnection.get(connectionId) === true;
  }
}

/** Questions waiting for the client's answer, by connection and request id. */
export class PendingElicitations {
  readonly #waiting = new Map<string, (result: ElicitResult) => void>();

  get size(): number {
    return this.#waiting.size;
  }

  /**
   * Sends the question with `send` and resolves with the client's answer; `cancel` when the
   * time runs out, rejects when `signal` aborts (the client went away).
   */
  ask(
    connectionId: string,
    params: ElicitRequestFormParams,
    send: (message: object) => void,
    signal: AbortSignal,
    timeoutMs = ELICITATION_TIMEOUT_MS,
  ): Promise<ElicitResult> {
    const id = `confirm-${randomUUID()}`;
    const key = `${connectionId}\n${id}`;
    return new Promise<ElicitResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.#waiting.delete(key);
      };
      const aborted = () => {
        done();
        reject(new Error('the client went away'));
      };
      const timer = setTimeout(() => {
        done();
        resolve({ action: 'cancel' });
      }, timeoutMs);
      timer.unref();
      if (signal.aborted) return aborted();
      signal.addEventListener('abort', aborted, { once: true });
      this.#waiting.set(key, (result) => {
        done();
        resolve(result);
      });
      send({ jsonrpc: '2.0', id, method: 'elicitation/create', params });
    });
  }

  /**
   * Takes `body` when it is the client's JSON-RPC response to a question of this connection:
   * true then (the caller answers 202). An error response counts as cancelled.
   */
  answer(connectionId: string, body: unknown): boolean {
    if (!isRecord(body) || 'method' in body || typeof body.id !== 'string') return false;
    const waiting = this.#waiting.get(`${connectionId}\n${body.id}`);
    if (!waiting) return false;
    const result = body.result;
    if (isRecord(result) && (result.action === 'accept' || result.action === 'decline' || result.action === 'cancel')) {
      waiting({
        action: result.action,
        ...(isRecord(result.content) ? { content: result.content as ElicitResult['content'] } : {}),
      });
    } else {
      waiting({ action: 'cancel' });
    }
    return true;
  }
}

/** An SSE answer to one 2025-era call: messages as `event: message` frames. */
export class CallStream {
  readonly #abort = new AbortController();
  #ended = false;

  constructor(private readonly res: ServerResponse) {
    res.on('close', () => {
      if (!this.#ended) this.#abort.abort();
    });
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  open(): void {
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    this.res.flushHeaders();
  }

  send(message: object): void {
    if (!this.res.writableEnded) this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  finish(id: string | number, result: CallToolResult): void {
    this.#ended = true;
    this.send({ jsonrpc: '2.0', id, result });
    this.res.end();
  }
}
