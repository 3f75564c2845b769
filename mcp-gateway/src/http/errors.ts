/**
 * Errors thrown while a request is served, answered in the body shape of the part that
 * served it. Every router installs one boundary before its routes
 * (`router.use(errorBoundary(oauthErrors, log))`), so the shape is declared where the routes
 * are; the app's outermost boundary answers what no router took, by the kind of path
 * (pathClass.ts).
 *
 * What an error means — its status and the message the caller may see — is decided once
 * here (`failureOf`), whatever the shape: a 4xx keeps its status and its message when it is
 * safe to show, an unreachable ledger is 503 with Retry-After, anything else is a logged 500
 * whose details stay in the log.
 */
import type { Context, Middleware } from 'koa';
import type { RefusalBody } from '@ledger/shared/httpServer';
import { LedgerUnavailableError } from '../ledgerClient.ts';
import { errorPage } from './page.tsx';
import { isApiPath, isOAuthClientPath } from './pathClass.ts';

/** Where failures the caller is not told about are written (the gateway's logger, or the MCP endpoint's). */
export interface ErrorLog {
  error(obj: object, msg?: string): void;
}

export interface Failure {
  status: number;
  /** what the caller may read */
  message: string;
}

/** Writes a failure as one kind of answer. */
export type ErrorShape = (ctx: Context, failure: Failure) => void;

interface HttpErrorLike {
  status?: number;
  expose?: boolean;
  message?: string;
  stack?: string;
}

/** The status and public message of a thrown error; logs what the caller is not told. */
export function failureOf(raw: unknown, ctx: Context, log: ErrorLog): Failure {
  if (raw instanceof LedgerUnavailableError) {
    log.error({ err: raw.message }, 'ledger unavailable');
    ctx.set('Retry-After', '5');
    return { status: 503, message: 'The service is temporarily unavailable; try again shortly.' };
  }
  const err = (typeof raw === 'object' && raw !== null ? raw : { message: String(raw) }) as HttpErrorLike;
  const status = err.status && err.status >= 400 && err.status < 500 ? err.status : err.status === 503 ? 503 : 500;
  if (status === 500) {
    log.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error');
    return { status, message: 'An internal error occurred.' };
  }
  return { status, message: err.expose ? (err.message ?? '') : 'The request is not valid.' };
}

export function errorBoundary(shape: ErrorShape, log: ErrorLog): Middleware {
  return async function answerErrors(ctx, next) {
    try {
      await next();
    } catch (raw) {
      shape(ctx, failureOf(raw, ctx, log));
    }
  };
}

/** The error code a failure's status gets in a body shape: 500, 503, or any 4xx. */
function codeFor(status: number, codes: { internal: string; unavailable: string; invalid: string }): string {
  return status === 500 ? codes.internal : status === 503 ? codes.unavailable : codes.invalid;
}

/** The JSON error body of the API paths (the ledger's too): `{"error": {"code", "message"}}`. */
export function jsonErrorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

export const jsonErrors: ErrorShape = (ctx, { status, message }) => {
  ctx.status = status;
  ctx.body = jsonErrorBody(
    codeFor(status, { internal: 'internal_error', unavailable: 'unavailable', invalid: 'invalid_request' }),
    message,
  );
};

/** An RFC 6749 §5.2 / RFC 7591 §3.2.2 error answer: `{"error", "error_description"}`, never cached. */
export function sendOAuthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error, error_description: description };
}

/** The endpoints OAuth clients call (token, revoke, register). */
export const oauthErrors: ErrorShape = (ctx, { status, message }) =>
  sendOAuthError(
    ctx,
    status,
    codeFor(status, { internal: 'server_error', unavailable: 'temporarily_unavailable', invalid: 'invalid_request' }),
    message,
  );

/** Page routes: an HTML page for a browser, the JSON error body for any other caller. */
export const pageErrors: ErrorShape = (ctx, failure) => {
  if (ctx.accepts('html', 'json') !== 'html') return jsonErrors(ctx, failure);
  errorPage(ctx, failure.status, failure.status >= 500 ? 'Something went wrong' : 'Bad request', failure.message);
};

/** What no router took: API paths always answer JSON (pathClass.ts), other paths as pages do. */
export const fallbackErrors: ErrorShape = (ctx, failure) =>
  (isApiPath(ctx.path) ? jsonErrors : pageErrors)(ctx, failure);

/**
 * A request refused before any router saw it (Node's parser, or headers over the limit;
 * server.ts): the OAuth endpoints keep RFC 6749's shape, whatever went wrong, so a client
 * reads `error` as the string it expects; every other path gets the API error body.
 */
export const refusalBody: RefusalBody = ({ code, message }, target) =>
  isOAuthClientPath(target?.split('?', 1)[0] ?? '')
    ? { error: 'invalid_request', error_description: message }
    : jsonErrorBody(code, message);
