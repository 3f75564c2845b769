import type { Context } from 'koa';
import { ApiError } from '../../kernel/errors.ts';
import { isMultipart, type Upload } from '../../kernel/multipart.ts';

/**
 * The body of POST /documents/inbox: JSON `{ name, data, media_type? }` as sent, or a
 * multipart/form-data body with one part `file` (read by the kernel as the contract declares
 * it, kernel/multipart.ts), turned into the same JSON (its bytes as a data URI) so one schema
 * validates both and the handler reads one shape.
 */
export function inboxBody(ctx: Context, uploads: readonly Upload[]): unknown {
  if (!isMultipart(ctx)) return ctx.request.body;
  if (uploads.length !== 1)
    throw new ApiError('invalid_request', 'Send exactly one file, in a part named "file".', '/file');
  const f = uploads[0]!;
  if (f.data.length === 0) throw new ApiError('invalid_request', 'The file is empty.', '/file');
  // the bytes decide the type (the handler sniffs them); the part's type is only echoed in messages
  return {
    name: (f.filename || 'upload').slice(0, 255),
    data: `data:${f.mediaType ?? 'application/octet-stream'};base64,${f.data.toString('base64')}`,
  };
}
