import type { Context, Next } from 'koa';
import {
  ERROR_STATUS,
  type BatchProblem,
  type ConfirmationPreview,
  type ErrorBody,
  type ErrorCode,
} from '@ledger/shared';
import type { Logger } from '../logger.ts';
import { requestLog } from './requestContext.ts';
import { BatchRefused, ConfirmationRequired, DomainError } from '../domain/errors.ts';

/** An error meant for the caller: becomes the error body of docs/rest-api.md "Errors" with its status. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly status: number = ERROR_STATUS[code],
    readonly headers: Record<string, string> = {},
    /** extra members of the error object, e.g. `reason` of connection_not_allowed */
    readonly details: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** a refused batch's problems, answered as `error.errors` */
  problems?: readonly BatchProblem[];
  /** confirmation_required: the preview and the new token, answered as `error.preview`, `error.confirmation` */
  confirming?: { preview: ConfirmationPreview; confirmation: { token: string; expires_at: string } };
}

export function errorBody(
  code: string,
  message: string,
  field?: string,
  details: Readonly<Record<string, string>> = {},
): ErrorBody {
  return { error: { ...(field ? { code, message, field } : { code, message }), ...details } };
}

/**
 * The challenge of a 401 (RFC 9110 §11.6.1 wants one on every 401): the API's scheme is a key
 * in a header of its own, which no registered scheme describes, so it is named as such. An
 * ApiError that brings its own WWW-Authenticate (the internal API's Bearer) keeps it.
 */
export const API_KEY_CHALLENGE = 'ApiKey header="X-API-Key"';

/** A refusal of domain code (rules, services, stores): its code decides the status. */
function fromDomainError(err: unknown): ApiError | undefined {
  if (!(err instanceof DomainError)) return undefined;
  // a 503 of domain code (a job queue not ready yet) says when to retry, as every 503 does
  const headers: Record<string, string> =
    err.code === 'unavailable' ? { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
  const api = new ApiError(err.code, err.message, err.field, undefined, headers);
  if (err instanceof BatchRefused) api.problems = err.problems;
  if (err instanceof ConfirmationRequired) api.confirming = { preview: err.preview, confirmation: err.confirmation };
  return api;
}

/** Maps what koa-body / raw-body throw for bad bodies to API errors. */
function fromHttpError(err: {
  status?: number;
  httpCode?: number;
  type?: string;
  message?: string;
}): ApiError | undefined {
  // formidable (multipart) errors carry httpCode instead of status, e.g. 413 for a file over maxFileSize
  const status = err.status ?? err.httpCode;
  if (status === 413 || err.type === 'entity.too.large') {
    return new ApiError('payload_too_large', 'The request body is larger than allowed.');
  }
  if (status === 415) return new ApiError('unsupported_media_type', 'Unsupported content type.');
  if (status === 400 && (err.type === 'entity.parse.failed' || /JSON|Unexpected|parse/i.test(err.message ?? ''))) {
    return new ApiError('invalid_request', 'The request body is not valid JSON.');
  }
  if (status === 400) return new ApiError('invalid_request', err.message ?? 'Bad request.');
  return undefined;
}

/** Seconds a client should wait before retrying while the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function unavailable(message: string, retryAfter = UNAVAILABLE_RETRY_AFTER_SECONDS): ApiError {
  return new ApiError('unavailable', message, undefined, undefined, { 'Retry-After': String(retryAfter) });
}

/** Socket-level failures reaching Postgres (node's errno codes). */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

interface DbError {
  code?: string;
  name?: string;
  message?: string;
  constraint?: string;
}

/** What pg and knex say when the connection to Postgres failed or could not be made. */
const CONNECTION_FAILURE_MESSAGE = new RegExp(
  '^Connection terminated|Client has encountered a connection error|Connection ended unexpectedly|' +
    'timeout exceeded when trying to connect',
  'i',
);

/**
 * The database cannot be reached or cannot take the request right now: a refused or cut
 * connection (pg's "Connection terminated…", also after a Postgres restart), knex's pool
 * acquire timeout. Identified by errno and the drivers' fixed messages, because pg and
 * knex give these no SQLSTATE.
 */
function isConnectionFailure(err: DbError): boolean {
  if (err.code !== undefined && CONNECTION_ERRNOS.has(err.code)) return true;
  if (err.name === 'KnexTimeoutError') return true;
  const message = err.message ?? '';
  return CONNECTION_FAILURE_MESSAGE.test(message);
}

/**
 * Database errors by SQLSTATE class (PostgreSQL Appendix A), so every code of a class
 * gets the same treatment: data exceptions and integrity violations come from the
 * request (4xx); connection, resource and shutdown conditions are temporary (503 with
 * Retry-After); everything else (syntax, undefined objects, internal errors) is our
 * fault and stays a 500.
 */
function fromDbError(err: DbError): ApiError | undefined {
  if (isConnectionFailure(err)) return unavailable('The database cannot be reached at the moment; retry later.');
  const code = err.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  switch (code) {
    case '23505':
      return new ApiError(
        'conflict',
        `A record with the same unique value already exists${err.constraint ? ` (${err.constraint})` : ''}.`,
      );
    case '23503':
      return new ApiError('conflict', 'The record is referenced by other records or refers to a missing one.');
    case '23502':
    case '23514':
      return new ApiError('invalid_request', 'A value violates a rule of the stored record.');
    case '22003':
      return new ApiError('invalid_request', 'A number is out of range.');
    case '22007':
    case '22008':
      return new ApiError('invalid_request', 'A date is not valid.');
    case '22021':
    case '22P05':
      return new ApiError('invalid_request', 'A text value contains a character that cannot be stored (e.g. NUL).');
    case 'LV001': // the settled VAT period's lock (db/migrations/028_vat_period_lock.ts): its message names the return
      // knex puts the statement before the trigger's message
      return new ApiError('vat_period_filed', (err.message ?? '').replace(/^[\s\S]*? - (?=The VAT return)/, ''));
    case '57014': // statement timeout / cancelled
      return unavailable('The request took too long; retry later.', 1);
    default:
  }
  switch (code.slice(0, 2)) {
    case '22': // data exception
      return new ApiError('invalid_request', 'A value in the request is not valid.');
    case '23': // integrity constraint violation
      return new ApiError('conflict', 'The request conflicts with existing records.');
    case '40': // serialization failure, deadlock: the same request may succeed when retried
      return unavailable('The request collided with a concurrent one; retry.', 1);
    case '54': // program limit exceeded, e.g. a value too large for an index
      return new ApiError('invalid_request', 'A value in the request is too large to store.');
    case '08': // connection exception
    case '53': // insufficient resources (too many connections, out of memory or disk)
      return unavailable('The database cannot take the request at the moment; retry later.');
    case '57': // operator intervention: 57P01-57P05 shutdown, cannot connect now
      return unavailable('The database is restarting or unavailable; retry later.');
    default:
      return undefined;
  }
}

/** A 405/501 the router left without a body: a method no route at this path takes. */
function methodNotAllowed(ctx: Context): ApiError {
  const allow = ctx.response.get('Allow');
  if (!allow) return new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
  return new ApiError('method_not_allowed', `${ctx.method} is not allowed here; allowed: ${allow}.`, undefined, 405, {
    Allow: allow,
  });
}

/** The API error a thrown error stands for; undefined for our own faults (a 500). */
export function toApiError(raw: unknown): ApiError | undefined {
  if (raw instanceof ApiError) return raw;
  const err = raw as Error & Record<string, unknown>;
  return fromDomainError(raw) ?? fromHttpError(err as never) ?? fromDbError(err as never);
}

/** The error body of an API error, as the caller receives it. */
export function apiErrorBody(api: ApiError): ErrorBody {
  const body = errorBody(api.code, api.message, api.field, api.details);
  if (api.problems) body.error.errors = [...api.problems];
  if (api.confirming) Object.assign(body.error, api.confirming);
  return body;
}

/** The one place where errors become HTTP responses. */
export function errorMiddleware(log: Logger) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
      }
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined) throw methodNotAllowed(ctx);
    } catch (raw) {
      const err = raw as Error & Record<string, unknown>;
      const api = toApiError(raw);
      if (api) {
        // a 503 is ours to watch (database unreachable), though not a bug
        if (api.status >= 500) requestLog(ctx, log).warn({ code: api.code, cause: err.message }, api.message);
        ctx.status = api.status;
        if (api.status === 401) ctx.set('WWW-Authenticate', API_KEY_CHALLENGE);
        for (const [k, v] of Object.entries(api.headers)) ctx.set(k, v);
        ctx.body = apiErrorBody(api);
        return;
      }
      requestLog(ctx, log).error({ err }, 'unhandled error');
      ctx.status = 500;
      ctx.body = errorBody('internal_error', 'An internal error occurred.');
    }
  };
}
