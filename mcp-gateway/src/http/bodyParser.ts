/**
 * The one body parser of the gateway's own routes (forms and JSON up to 64 KiB). Each router
 * that reads bodies mounts it after its error boundary, so a body that cannot be read is
 * answered in that router's shape; the app mounts it once more for requests no router took,
 * so such a body is judged (400/413/415) before the 404. The MCP endpoint reads its own body
 * and the ledger's paths are forwarded unread.
 */
import type { Context } from 'koa';
import { koaBody } from 'koa-body';

export const parseBody = koaBody({
  urlencoded: true,
  json: true,
  multipart: false,
  text: false,
  formLimit: '64kb',
  jsonLimit: '64kb',
  jsonStrict: true,
  onError: (err: Error) => {
    throw Object.assign(err, { status: (err as { status?: number }).status ?? 400, expose: true });
  },
});

/** The parsed form or JSON object's fields; anything else (no body, a JSON array or scalar) has none. */
export function bodyFields(ctx: Context): Readonly<Record<string, unknown>> {
  const body: unknown = ctx.request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
