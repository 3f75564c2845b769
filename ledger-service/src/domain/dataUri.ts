import { RuleError, ruleInvalid } from './ruleError.ts';

/** A decoded attachment. */
export interface FileContent {
  name: string;
  mediaType: string;
  data: Buffer;
}

const DATA_URI = /^data:([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126})((?:;[A-Za-z0-9_.-]+=[^;,]*)*);base64,(.*)$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Parses `data:<media_type>[;param=value];base64,<data>`. The media type is required,
 * the payload must be canonical base64 (no whitespace, correct padding) and at most
 * `limit` bytes once decoded.
 */
export function parseDataUri(name: string, uri: string, limit: number, field: string): FileContent {
  const m = DATA_URI.exec(uri);
  if (!m) {
    throw ruleInvalid('File data must be a data URI with a media type: data:<media_type>;base64,<data>.', field);
  }
  const payload = m[3]!;
  if (payload.length === 0 || !BASE64.test(payload)) throw ruleInvalid('File data is not valid base64.', field);
  const decodedSize = (payload.length / 4) * 3 - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0);
  if (decodedSize > limit) {
    throw new RuleError('payload_too_large', `File "${name}" is ${decodedSize} bytes; the limit is ${limit} bytes.`, field);
  }
  return { name, mediaType: m[1]!.toLowerCase(), data: Buffer.from(payload, 'base64') };
}

/** Media type as sent on a multipart part: type/subtype, parameters dropped. */
export function normalizeMediaType(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const base = raw.split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(base) ? base : null;
}
