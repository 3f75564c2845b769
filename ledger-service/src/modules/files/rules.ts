/**
 * Byte ranges of GET /documents/{id}/content (RFC 9110 §14): one range per request. A
 * `Range` header that is not a single `bytes=` range (several ranges, another unit, a
 * malformed value) is ignored and the whole file is sent, as the RFC allows; a well-formed
 * range that starts past the end is unsatisfiable (416).
 */
export type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

export function byteRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  const [first, last] = [m[1]!, m[2]!];
  if (first === '') {
    // suffix range: the last n bytes
    const n = Number(last);
    if (n === 0) return { kind: 'unsatisfiable' };
    return size === 0 ? { kind: 'unsatisfiable' } : { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // invalid range: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/** `filename` for Content-Disposition: the name without path separators or control characters. */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[\\/]/g, '_')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return cleaned || 'document';
}
