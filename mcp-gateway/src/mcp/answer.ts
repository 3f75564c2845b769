/**
 * An answer the MCP endpoint gives itself, before or instead of the SDK: a refusal of the
 * request pipeline (steps.ts), an ended connection after the SDK ran, or an internal error.
 * Every such answer is JSON and never cached, written to a Node response or returned as a
 * fetch Response (inside the SDK's handler).
 */
import type { ServerResponse } from 'node:http';
import type { Challenge } from './challenge.ts';
import { invalidTokenChallenge } from './challenge.ts';
import type { TokenResolution } from './types.ts';

/** A token or connection that does not (or no longer) work, with the reason. */
export type TokenRefusal = Extract<TokenResolution, { ok: false }>;

export class McpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  static challenge(c: Challenge): McpAnswer {
    return new McpAnswer(c.status, c.body, c.headers);
  }

  /** An answer without a body (202 for a client's answer to a question, legacyConfirm.ts). */
  static empty(status: number): McpAnswer {
    return new McpAnswer(status, undefined);
  }

  /** A JSON-RPC error without a request id: the message itself was refused. */
  static jsonRpcError(status: number, code: number, message: string): McpAnswer {
    return new McpAnswer(status, { jsonrpc: '2.0', error: { code, message }, id: null });
  }

  /** 401 invalid_token for a token or connection that does not work; 503 when the ledger could not be asked. */
  static tokenRefused(publicUrl: string, dataset: string, r: TokenRefusal): McpAnswer {
    if (r.reason === 'unavailable') {
      return new McpAnswer(
        503,
        { error: 'temporarily_unavailable', error_description: r.description },
        { 'Retry-After': '5' },
      );
    }
    return McpAnswer.challenge(invalidTokenChallenge(publicUrl, dataset, r.description));
  }

  private allHeaders(): Record<string, string> {
    return { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...this.headers };
  }

  /** Writes the answer unless one has already started (then the connection carries that one). */
  send(res: ServerResponse): void {
    if (res.headersSent) return;
    if (this.body === undefined) {
      res.writeHead(this.status, this.headers).end();
      return;
    }
    const payload = JSON.stringify(this.body);
    res.writeHead(this.status, this.allHeaders());
    res.end(payload);
  }

  toResponse(): Response {
    return new Response(JSON.stringify(this.body), { status: this.status, headers: this.allHeaders() });
  }
}
