/**
 * The ledger's check that a request's connection may still live, as one object per request
 * instead of flags threaded through the serving code.
 *
 * Admission (steps.ts `checkConnection`) either made the check already or left it to the
 * request's own ledger REST call (`pending`): the ledger enforces the connection's
 * preconditions on every service-credential request (403 `connection_not_allowed`). While
 * the check is pending, the tool-run dependencies of the request (`toolRun`) watch every
 * ledger answer: a refusal ends the connection for good, an `X-Connection-Checked` answer
 * confirms it. Before an answer leaves, `beforeAnswer` completes a pending check (the
 * separate lookup when no ledger call of the request confirmed it); a path that starts
 * streaming before the tool runs checks first (`beforeStreaming`).
 */
import type { TokenRefusal } from '../answer.ts';
import { andThen, type Maybe } from '../maybe.ts';
import type { ToolRunDeps } from '../server.ts';
import type { LedgerResponse, McpConnection, McpDeps } from '../types.ts';

/** The ledger's reason when it refused the connection's service credential, else undefined. */
export function connectionRefusal(res: LedgerResponse): string | undefined {
  if (res.status !== 403 || typeof res.body !== 'object' || res.body === null) return undefined;
  const error = (res.body as { error?: { code?: unknown; reason?: unknown } }).error;
  if (error?.code !== 'connection_not_allowed') return undefined;
  return typeof error.reason === 'string' ? error.reason : '';
}

export class ConnectionCheck {
  #pending: boolean;
  /** a ledger REST call of this request confirmed the connection */
  #verified = false;
  /** the ledger refused the connection during this request: it has ended */
  #ended: TokenRefusal | undefined;

  constructor(
    private readonly deps: McpDeps,
    readonly connection: McpConnection,
    /** admission left the check to the request's own ledger REST call */
    pending: boolean,
  ) {
    this.#pending = pending;
  }

  /** The check is still left to the request's ledger calls. */
  get pending(): boolean {
    return this.#pending;
  }

  /** The tool-run dependencies of this request: its ledger calls tell whether the connection stands. */
  toolRun(stateKey: Uint8Array): ToolRunDeps {
    const { deps } = this;
    // methods of the literal rather than arrow functions: this runs on every tool call, and
    // neither uses `this`, so each may be handed on alone
    const check = this;
    return {
      callLedger(connection, method, path, body, headers) {
        return deps
          .callLedger(connection, method, path, body, headers)
          .then((res) => check.#sawAnswer(connection, res));
      },
      // a call during which the ledger refused the connection counts as refused, not as a tool error
      onToolCall(tool, result) {
        deps.onToolCall?.(tool, check.#ended ? 'refused' : result);
      },
      log: deps.log,
      publicUrl: deps.publicUrl,
      stateKey,
    };
  }

  /**
   * A ledger answer of this request: X-Connection-Checked confirms the connection (at once, the
   * common case), a refusal ends it (the answer handed on once that is recorded).
   */
  #sawAnswer(connection: McpConnection, res: LedgerResponse): Maybe<LedgerResponse> {
    const refused = connectionRefusal(res);
    if (refused === undefined) {
      if (res.connectionChecked) this.#verified = true;
      return res;
    }
    return this.deps.connectionRefused(connection, refused).then((ended) => {
      this.#ended = ended.ok ? { ok: false, reason: 'ended', description: 'The connection has ended.' } : ended;
      this.deps.log.info(
        { conn: connection.id, reason: refused },
        'connection ended: the ledger refused its credential',
      );
      return res;
    });
  }

  /** Before an answer that may start before the tool has run: the check made now, if still pending. */
  async beforeStreaming(): Promise<TokenRefusal | undefined> {
    if (!this.#pending) return undefined;
    this.#pending = false;
    const confirmed = await this.deps.confirmConnection(this.connection, false);
    return confirmed.ok ? undefined : confirmed;
  }

  /**
   * Before the answer leaves: why it must be a refusal, if a pending check fails. At once
   * when nothing need be asked or written (the ledger confirmed the connection, its use
   * recorded less than a minute ago).
   */
  beforeAnswer(): Maybe<TokenRefusal | undefined> {
    if (!this.#pending) return undefined;
    if (this.#ended) return this.#ended;
    return andThen(this.deps.confirmConnection(this.connection, this.#verified), (confirmed) =>
      confirmed.ok ? undefined : confirmed,
    );
  }
}
