/**
 * File names built from a document's own text (an invoice number "2024/117", a vendor's
 * "R\2024\5"). Numbers may hold any character but control characters, so the name is made
 * safe here, where it is built, and not by refusing the number: every run of characters
 * other than ASCII letters, digits, `.`, `_` and `-` becomes one `_` (no path separator, no
 * quote, nothing a Content-Disposition header, a mail client or a file system reads as
 * structure), leading and trailing dots and underscores go (no hidden file, no `..`), at most
 * 100 characters; an empty result is `fallback`.
 */
export function fileNameFrom(text: string, extension: string, fallback = 'document'): string {
  const base = text
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, 100)
    .replace(/^[._]+|[._]+$/g, '');
  return `${base || fallback}.${extension}`;
}
