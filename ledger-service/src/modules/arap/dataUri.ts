import { DomainError, ruleInvalid } from '../../domain/errors.ts';

/** A decoded attachment. */
export interface FileContent {
  name: string;
  mediaType: string;
  data: Buffer;
}

const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
const PARAMETER = /^[A-Za-z0-9_.-]+=[^;,]*$/;
/** Longest header (`data:<type>;<params>;base64,`) looked at; media types are at most 255 characters. */
const MAX_HEADER = 1024;

/** Canonical base64: A-Z a-z 0-9 + /, length a multiple of 4, at most two `=` at the end. */
function isCanonicalBase64(payload: string): boolean {
  if (payload.length === 0 || payload.length % 4 !== 0) return false;
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const end = payload.length - padding;
  for (let i = 0; i < end; i++) {
    const c = payload.charCodeAt(i);
    const ok =
      (c >= 65 && c <= 90) || // A-Z
      (c >= 97 && c <= 122) || // a-z
      (c >= 48 && c <= 57) || // 0-9
      c === 43 || // +
      c === 47; // /
    if (!ok) return false;
  }
  return true;
}

/**
 * Parses `data:<media_type>[;param=value];base64,<data>`. The media type is required,
 * the payload must be canonical base64 (no whitespace, correct padding) and at most
 * `limit` bytes once decoded. Only the short header is matched with regular expressions;
 * the payload (megabytes) is checked by a loop and its decoded size computed from its
 * length before anything is decoded, so a large file neither overflows the regex stack
 * nor is decoded only to be refused.
 */
export function parseDataUri(name: string, uri: string, limit: number, field: string): FileContent {
  const notDataUri = () =>
    ruleInvalid('File data must be a data URI with a media type: data:<media_type>;base64,<data>.', field);
  const comma = uri.indexOf(',');
  if (!uri.startsWith('data:') || comma < 0 || comma > MAX_HEADER) throw notDataUri();
  const [mediaType, ...rest] = uri.slice('data:'.length, comma).split(';');
  if (rest.pop() !== 'base64' || !MEDIA_TYPE.test(mediaType!) || !rest.every((p) => PARAMETER.test(p)))
    throw notDataUri();

  const payload = uri.slice(comma + 1);
  if (!isCanonicalBase64(payload)) throw ruleInvalid('File data is not valid base64.', field);
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const decodedSize = (payload.length / 4) * 3 - padding;
  if (decodedSize > limit) {
    throw new DomainError(
      'payload_too_large',
      `File "${name}" is ${decodedSize} bytes; the limit is ${limit} bytes.`,
      field,
    );
  }
  return { name, mediaType: mediaType!.toLowerCase(), data: Buffer.from(payload, 'base64') };
}
