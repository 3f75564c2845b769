/**
 * What every request to /oauth/token and /oauth/revoke shares: the form it must be sent as
 * and the error it answers with (RFC 6749 §5.2).
 */
import type { Context } from 'koa';

/** An RFC 6749 §5.2 error; the endpoint turns it into `{error, error_description}`. */
export class TokenError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

/** The form fields, each present at most once. */
export type TokenForm = Readonly<Record<string, string>>;

/** The form-encoded body; JSON, repeated or non-string parameters are invalid_request. */
export function readForm(ctx: Context): TokenForm {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new TokenError('invalid_request', 'Send the request as application/x-www-form-urlencoded.');
  }
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') throw new TokenError('invalid_request', `The parameter ${k} is repeated or malformed.`);
    out[k] = v;
  }
  return out;
}

export function required(form: TokenForm, name: string): string {
  const v = form[name];
  if (!v) throw new TokenError('invalid_request', `${name} is missing.`);
  return v;
}
