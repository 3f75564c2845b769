/**
 * multipart/form-data bodies, read as the route's contract declares them (`multipart`): the JSON
 * body from its one JSON part (the declared name, or one of its older aliases), the uploaded files
 * from the file part, and nothing else. Every endpoint that takes files reads them alike — the same
 * limits, the same refusals — and a module gets the JSON body and the files (prepareBody's
 * `uploads`), never koa-body's fields and temporary files. Those temporary files are removed when
 * the request ends, whatever happened (readBody, kernel/body.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Context } from 'koa';
import type { Contract } from '@ledger/shared';
import { ApiError } from './errors.ts';

/** One uploaded file, read into memory (its temporary file is gone with the request). */
export interface Upload {
  /** the part's file name, trimmed; '' when none was sent */
  filename: string;
  /** the part's Content-Type as type/subtype (lowercase, parameters dropped); undefined when missing or malformed */
  mediaType: string | undefined;
  data: Buffer;
}

/** What formidable keeps of a file part (its type declarations are more than this needs). */
interface TempFile {
  filepath: string;
  originalFilename?: string | null;
  mimetype?: string | null;
  size: number;
}

type Multipart = NonNullable<Contract['multipart']>;
/** a JSON value, as koa-body types a parsed JSON body */
type JsonBody = Context['request']['body'];

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** koa-body's field parts (strings, an array when a name repeats) and file parts of the request. */
function partsOf(ctx: Context): { fields: Record<string, unknown>; files: Record<string, TempFile | TempFile[]> } {
  const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
  const files = (ctx.request.files ?? {}) as unknown as Record<string, TempFile | TempFile[]>;
  return { fields, files };
}

/**
 * The temporary file name of a multipart file part (formidable's `filename` option): the
 * part's position in the body, then random bytes. formidable lists a body's files as each
 * finishes writing to disk, so two files could come back swapped (a small second file done
 * before a large first one); formidable names them when each part begins, in body order, so
 * the files are put back in the order they were sent by this number (`readMultipart`).
 */
export function uploadFileName(_name: string, _ext: string, _part: unknown, form: object): string {
  const counted = form as { partsBegun?: number };
  counted.partsBegun = (counted.partsBegun ?? 0) + 1;
  return `${String(counted.partsBegun).padStart(4, '0')}-${randomBytes(16).toString('hex')}`;
}

/** The body position `uploadFileName` gave a temporary file. */
const partPosition = (f: TempFile) => Number.parseInt(basename(f.filepath), 10);

/** Whether the request's body was read as multipart/form-data. */
export function isMultipart(ctx: Context): boolean {
  return ctx.request.files !== undefined;
}

/** Removes the temporary files of a multipart body; a file already gone is fine. */
export async function discardUploads(ctx: Context): Promise<void> {
  if (!isMultipart(ctx)) return;
  const all = Object.values(partsOf(ctx).files).flatMap((f) => asList(f));
  await Promise.all(all.map((f) => unlink(f.filepath).catch(() => undefined)));
}

/** Media type as sent on a part: type/subtype, parameters dropped; undefined unless well-formed. */
export function partMediaType(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const base = raw.split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(base) ? base : undefined;
}

/** The part names a contract takes, for messages: `send the JSON as "entry" and each file as "files"`. */
function expected(m: Multipart): string {
  return m.jsonPart
    ? `send the JSON as "${m.jsonPart}" and each file as "${m.filePart}"`
    : `send the file as "${m.filePart}"`;
}

/**
 * 415 for a multipart body where the contract declares none: only endpoints that take files take
 * multipart/form-data, everywhere else the body is JSON (a form would otherwise pass as a JSON
 * object of strings).
 */
export function assertMultipartAccepted(ctx: Context, contract: Contract): void {
  if (!isMultipart(ctx) || contract.multipart) return;
  throw new ApiError(
    'unsupported_media_type',
    'This endpoint takes its body as application/json only; multipart/form-data is for endpoints that take files.',
  );
}

/**
 * The JSON body and the files of a multipart request, per the contract's declaration: exactly one
 * JSON part (the name or one alias; none when the contract takes a file alone), any number of file
 * parts each at most `fileLimit` bytes, no other part. Every refusal is the client's: 400 (413 for
 * a file over the limit).
 */
export async function readMultipart(
  ctx: Context,
  contract: Contract,
  fileLimit: number,
): Promise<{ body: JsonBody; uploads: Upload[] }> {
  const m = contract.multipart;
  if (!m) throw new Error(`readMultipart: contract ${contract.name} declares no multipart body`);
  const { fields, files } = partsOf(ctx);
  const jsonNames = m.jsonPart ? [m.jsonPart, ...(m.jsonPartAliases ?? [])] : [];
  for (const name of [...Object.keys(fields), ...Object.keys(files)]) {
    if (name !== m.filePart && !jsonNames.includes(name)) {
      throw new ApiError('invalid_request', `Unknown multipart part "${name}": ${expected(m)}.`, `/${name}`);
    }
  }
  let body: JsonBody;
  if (m.jsonPart) body = await jsonPart(m, jsonNames, fields, files);
  const uploads: Upload[] = [];
  const fileParts = asList(files[m.filePart]).sort((a, b) => partPosition(a) - partPosition(b));
  if (asList(fields[m.filePart]).length > 0) {
    throw new ApiError(
      'invalid_request',
      `The "${m.filePart}" part must be a file (with a filename and a Content-Type).`,
      `/${m.filePart}`,
    );
  }
  for (const [i, f] of fileParts.entries()) {
    if (f.size > fileLimit) {
      // a contract that takes one file alone (the inbox) names it without an index
      throw m.jsonPart
        ? new ApiError(
            'payload_too_large',
            `File part ${i + 1} is larger than ${fileLimit} bytes.`,
            `/${m.filePart}/${i}`,
          )
        : new ApiError('payload_too_large', `The file is larger than ${fileLimit} bytes.`, `/${m.filePart}`);
    }
    uploads.push({
      filename: (f.originalFilename ?? '').trim(),
      mediaType: partMediaType(f.mimetype),
      data: await readFile(f.filepath),
    });
  }
  return { body, uploads };
}

/** The parsed JSON of the one JSON part, sent as a field or as a file; 400 when none, two or not JSON. */
async function jsonPart(
  m: Multipart,
  names: string[],
  fields: Record<string, unknown>,
  files: Record<string, TempFile | TempFile[]>,
): Promise<JsonBody> {
  const main = m.jsonPart!;
  const sent = names.flatMap((name) => [
    ...asList(fields[name]).map((value) => ({ name, value })),
    ...asList(files[name]).map((file) => ({ name, file })),
  ]);
  const aliases = m.jsonPartAliases?.length ? ` (or ${m.jsonPartAliases.map((a) => `"${a}"`).join(' or ')})` : '';
  if (sent.length === 0) {
    throw new ApiError(
      'invalid_request',
      `A multipart request needs the JSON document in a part named "${main}"${aliases}.`,
      `/${main}`,
    );
  }
  if (sent.length > 1) {
    const got = sent.map((p) => `"${p.name}"`).join(', ');
    throw new ApiError(
      'invalid_request',
      `Send the JSON document in one part, named "${main}"${aliases}; got ${sent.length}: ${got}.`,
      `/${sent[1]!.name}`,
    );
  }
  const part = sent[0]!;
  const text = 'file' in part ? await readFile(part.file!.filepath, 'utf8') : String(part.value);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', `The "${part.name}" part is not valid JSON.`, `/${part.name}`);
  }
}
