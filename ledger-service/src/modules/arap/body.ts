import type { Context } from 'koa';
import { CURRENCY_ON_WRITE_MESSAGE, isKnownCurrency, type TransactionInput } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';
import { parseDataUri, type FileContent } from './dataUri.ts';
import { ApiError } from '../../kernel/errors.ts';
import type { Upload } from '../../kernel/multipart.ts';
import { Prepared } from '../../kernel/route.ts';

/**
 * Request bodies of AR/AP document and journal entry writes: JSON, or multipart/form-data,
 * which the kernel has read as the contract declares it (kernel/multipart.ts: the JSON part
 * is the body, the file parts come as uploads). Here the uploads become attachments, which
 * reach the handler as `req.prepared` (a Prepared, kernel/route.ts), beside the data URIs of
 * the JSON body (collectFiles).
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fileLimit(ctx: Context): number {
  return (ctx.config as LedgerConfig).fileLimit;
}

/** The uploaded files as attachments: each needs a media type; a file without a name is named by its place. */
function attachments(uploads: readonly Upload[]): FileContent[] {
  return uploads.map((u, i) => {
    if (!u.mediaType)
      throw new ApiError('invalid_request', `File part ${i + 1} has no valid Content-Type.`, `/files/${i}`);
    return { name: (u.filename || `file-${i + 1}`).slice(0, 255), mediaType: u.mediaType, data: u.data };
  });
}

/**
 * Before the completeness check, so that an update sending `currency` hears about `curr` first (the kernel's check
 * comes later).
 */
function checkCurrency(body: Record<string, unknown>): void {
  if ('currency' in body) throw new ApiError('invalid_currency', CURRENCY_ON_WRITE_MESSAGE, '/curr');
  if ('curr' in body) {
    const curr = body.curr;
    if (typeof curr !== 'string' || !isKnownCurrency(curr)) {
      throw new ApiError(
        'invalid_currency',
        `curr must be a three-letter ISO 4217 currency code, got ${JSON.stringify(curr)}.`,
        '/curr',
      );
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
  return (ctx: Context, uploads: readonly Upload[]): Prepared<FileContent[]> => {
    let body: unknown = ctx.request.body;
    const files = attachments(uploads);
    if (!isObject(body)) throw new ApiError('invalid_request', 'The request body must be a JSON object.');
    checkCurrency(body);
    if (opts.complete) requireComplete(body, String(ctx.params.vc), opts.listField ?? 'lines');
    // approving posts: pending "0" is implied when left out
    if (opts.approve && !('pending' in body)) body = { ...body, pending: '0' };
    // the uploaded files go to the handler as req.prepared (collectFiles)
    return new Prepared(body, files);
  };
}

/** All attachments of a write: data URIs of the JSON body and multipart file parts. */
export function collectFiles(
  req: { ctx: Context; prepared: readonly FileContent[] },
  input: Pick<TransactionInput, 'files'>,
): FileContent[] {
  const limit = fileLimit(req.ctx);
  const fromJson = (input.files ?? []).map((f, i) => parseDataUri(f.name, f.data, limit, `/files/${i}/data`));
  return [...fromJson, ...req.prepared];
}
