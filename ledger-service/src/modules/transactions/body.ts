import { readFile, unlink } from 'node:fs/promises';
import type { Context } from 'koa';
import { isKnownCurrency, type TransactionInput } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';
import { normalizeMediaType, parseDataUri, type FileContent } from './dataUri.ts';
import { ApiError } from '../../kernel/errors.ts';

/**
 * Request bodies of AR/AP transaction writes. JSON, or multipart/form-data with the
 * transaction's JSON in a part named `transaction` (or `json`) and one `files` part per
 * attachment. Uploaded files are kept in ctx.state.uploads for the handler.
 */
export const JSON_PARTS = ['transaction', 'json'] as const;
export const FILE_PART = 'files';

interface UploadedFile {
  filepath: string;
  originalFilename?: string | null;
  newFilename?: string;
  mimetype?: string | null;
  size: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export function fileLimit(ctx: Context): number {
  return (ctx.config as LedgerConfig).fileLimit;
}

async function discard(files: UploadedFile[]): Promise<void> {
  await Promise.all(files.map((f) => unlink(f.filepath).catch(() => undefined)));
}

/** The JSON part and the file parts of a multipart body. */
async function fromMultipart(ctx: Context): Promise<{ body: unknown; uploads: FileContent[] }> {
  const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
  const parts = (ctx.request.files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
  const all = Object.values(parts).flatMap((p) => asList(p));
  try {
    for (const name of [...Object.keys(fields), ...Object.keys(parts)]) {
      if (![...JSON_PARTS, FILE_PART].includes(name as never)) {
        throw new ApiError('invalid_request', `Unknown multipart part "${name}": send the JSON as "transaction" and each file as "files".`, `/${name}`);
      }
    }
    let text: string | undefined;
    for (const name of JSON_PARTS) {
      const field = fields[name];
      const file = asList(parts[name])[0];
      if (typeof field === 'string') text = field;
      else if (file) text = await readFile(file.filepath, 'utf8');
      if (text !== undefined) break;
    }
    if (text === undefined) {
      throw new ApiError('invalid_request', 'A multipart request needs the transaction JSON in a part named "transaction".', '/transaction');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError('invalid_request', 'The "transaction" part is not valid JSON.', '/transaction');
    }
    const uploads: FileContent[] = [];
    for (const [i, f] of asList(parts[FILE_PART]).entries()) {
      const mediaType = normalizeMediaType(f.mimetype);
      if (!mediaType) throw new ApiError('invalid_request', `File part ${i + 1} has no valid Content-Type.`, `/files/${i}`);
      if (f.size > fileLimit(ctx)) throw new ApiError('payload_too_large', `File part ${i + 1} is larger than ${fileLimit(ctx)} bytes.`, `/files/${i}`);
      const name = (f.originalFilename ?? '').trim() || `file-${i + 1}`;
      uploads.push({ name: name.slice(0, 255), mediaType, data: await readFile(f.filepath) });
    }
    return { body, uploads };
  } finally {
    await discard(all);
  }
}

function checkCurrency(body: Record<string, unknown>): void {
  if ('currency' in body) {
    throw new ApiError('invalid_currency', 'Send the currency as "curr" (three letters); "currency" only appears when reading.', '/curr');
  }
  if ('curr' in body) {
    const curr = body.curr;
    if (typeof curr !== 'string' || !isKnownCurrency(curr)) {
      throw new ApiError('invalid_currency', `curr must be a three-letter ISO 4217 currency code, got ${JSON.stringify(curr)}.`, '/curr');
    }
  }
}

function requireComplete(body: Record<string, unknown>, vc: string, listField: string): void {
  const missing = ['invDate', listField].filter((k) => !(k in body));
  if (!(`${vc}_id` in body) && !(`${vc}number` in body)) missing.push(`${vc}_id`);
  if (missing.length > 0) {
    throw new ApiError(
      'invalid_request',
      `The complete document is required (it is saved as sent, ${listField} replaced); missing: ${missing.join(', ')}.`,
      `/${missing[0]}`,
    );
  }
}

/**
 * prepareBody for create (complete: false), update and approve (complete document required).
 * `listField`: what the document's rows are called — `lines` (transactions) or `items` (invoices).
 */
export function transactionBody(opts: { complete: boolean; approve?: boolean; listField?: 'lines' | 'items' }) {
  return async (ctx: Context): Promise<unknown> => {
    let body: unknown = ctx.request.body;
    let uploads: FileContent[] = [];
    if (ctx.is('multipart')) ({ body, uploads } = await fromMultipart(ctx));
    ctx.state.uploads = uploads;
    if (!isObject(body)) throw new ApiError('invalid_request', 'The request body must be a JSON object.');
    checkCurrency(body);
    if (opts.complete) requireComplete(body, String(ctx.params.vc), opts.listField ?? 'lines');
    // approving posts: pending "0" is implied when left out
    if (opts.approve && !('pending' in body)) body = { ...body, pending: '0' };
    return body;
  };
}

/** All attachments of a write: data URIs of the JSON body and multipart file parts. */
export function collectFiles(ctx: Context, input: Pick<TransactionInput, 'files'>): FileContent[] {
  const limit = fileLimit(ctx);
  const fromJson = (input.files ?? []).map((f, i) => parseDataUri(f.name, f.data, limit, `/files/${i}/data`));
  return [...fromJson, ...((ctx.state.uploads as FileContent[] | undefined) ?? [])];
}
