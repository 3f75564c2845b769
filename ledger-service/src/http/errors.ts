import type { Context, Next } from 'koa';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@ledger/shared';
import type { Logger } from '../logger.ts';

/** An error meant for the caller: becomes the DESIGN.md §5 error body with its status. */
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
}

export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
export const invalid = (message: string, field?: string) => new ApiError('invalid_request', message, field);

export function errorBody(code: string, message: string, field?: string, details: Readonly<Record<string, string>> = {}): ErrorBody {
  return { error: { ...(field ? { code, message, field } : { code, message }), ...details } };
}

/** Maps what koa-body / raw-body throw for bad bodies to API errors. */
function fromHttpError(err: { status?: number; httpCode?: number; type?: string; message?: string }): ApiError | undefined {
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

/** Postgres errors that bad input can cause, mapped to 4xx instead of 500. */
function fromPgError(err: { code?: string; constraint?: string; detail?: string }): ApiError | undefined {
  switch (err.code) {
    case '23505':
      return new ApiError('conflict', `A record with the same unique value already exists${err.constraint ? ` (${err.constraint})` : ''}.`);
    case '23503':
      return new ApiError('conflict', 'The record is referenced by other records or refers to a missing one.');
    case '22003':
      return new ApiError('invalid_request', 'A number is out of range.');
    case '22007':
    case '22008':
      return new ApiError('invalid_request', 'A date is not valid.');
    default:
      return undefined;
  }
}

/** The one place where errors become HTTP responses. */
export function errorMiddleware(log: Logger) {
  return async function handleErrors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
      }
    } catch (raw) {
      const err = raw as Error & Record<string, unknown>;
      const api = raw instanceof ApiError ? raw : fromHttpError(err as never) ?? fromPgError(err as never);
      if (api) {
        ctx.status = api.status;
        for (const [k, v] of Object.entries(api.headers)) ctx.set(k, v);
        ctx.body = errorBody(api.code, api.message, api.field, api.details);
        return;
      }
      (ctx.state.log as Logger | undefined ?? log).error({ err }, 'unhandled error');
      ctx.status = 500;
      ctx.body = errorBody('internal_error', 'An internal error occurred.');
    }
  };
}
