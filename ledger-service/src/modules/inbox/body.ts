import { readFile, unlink } from 'node:fs/promises';
import type { Context } from 'koa';
import type { LedgerConfig } from '../../config.ts';
import { ApiError } from '../../kernel/errors.ts';

/**
 * The body of POST /documents/inbox: JSON `{ name, data, media_type? }` as sent, or a
 * multipart/form-data body with one part `file`, turned into the same JSON (its bytes as a
 * data URI) so one schema validates both and the handler reads one shape.
 */
export const FILE_PART = 'file';

interface UploadedFile {
  filepath: string;
  originalFilename?: string | null;
  mimetype?: string | null;
  size: number;
}

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export async function inboxBody(ctx: Context): Promise<unknown> {
  if (!ctx.is('multipart')) return ctx.request.body;
  const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
  const parts = (ctx.request.files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
  const all = Object.values(parts).flatMap((p) => asList(p));
  try {
    for (const name of [...Object.keys(fields), ...Object.keys(parts)]) {
      if (name !== FILE_PART) throw new ApiError('invalid_request', `Unknown multipart part "${name}": send the file as "file".`, `/${name}`);
    }
    const files = asList(parts[FILE_PART]);
    if (files.length !== 1) throw new ApiError('invalid_request', 'Send exactly one file, in a part named "file".', '/file');
    const f = files[0]!;
    const limit = (ctx.config as LedgerConfig).fileLimit;
    if (f.size > limit) throw new ApiError('payload_too_large', `The file is larger than ${limit} bytes.`, '/file');
    if (f.size === 0) throw new ApiError('invalid_request', 'The file is empty.', '/file');
    const name = ((f.originalFilename ?? '').trim() || 'upload').slice(0, 255);
    // the bytes decide the type (the handler sniffs them); the part's type is only echoed in messages
    const declared = (f.mimetype ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
    const data = await readFile(f.filepath);
    return { name, data: `data:${/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(declared) ? declared : 'application/octet-stream'};base64,${data.toString('base64')}` };
  } finally {
    await Promise.all(all.map((f) => unlink(f.filepath).catch(() => undefined)));
  }
}
