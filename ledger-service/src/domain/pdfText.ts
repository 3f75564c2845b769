/**
 * Text on the product's PDFs (invoices with their QR-bill, reports) is set in PDF's standard
 * fonts (Helvetica), which pdfkit encodes as WinAnsi: Latin-1 and the 27 typographic
 * characters of Windows-1252 (€ – — ‘ ’ “ ” … and so on). Any other character used to be
 * written as two wrong bytes — U+2212 MINUS SIGN came out of `pdftotext` as `"` — so every
 * string drawn on a document goes through `winAnsiText` (`drawsWinAnsi` wires it into the
 * document, for the QR-bill library's text too): characters the font has stay as written,
 * a few common others become their ASCII spelling (− ‐ ‑ → "-", ≤ → "<=", thin and narrow
 * spaces → " "), letters with marks the font lacks lose the mark (ő → o, č → c), and what is
 * left becomes "?". Text the product writes itself keeps to the font, so it reads back as
 * written (`ledger-service/test/pdfText.test.ts` runs every PDF through `pdftotext`).
 */

/** The characters beyond Latin-1 that WinAnsi (Windows-1252, 0x80–0x9F) has. */
const WIN_ANSI_EXTRA = new Set(
  [
    0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019,
    0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
  ].map((c) => String.fromCodePoint(c)),
);

const SPELLED: Readonly<Record<string, string>> = {
  '\u2212': '-', // minus sign
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2015': '\u2014', // horizontal bar
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
  '\u2192': '->',
  '\u2190': '<-',
  '\u2032': "'",
  '\u2033': '"',
  '\u2044': '/',
  '\u2215': '/',
};

/** A character the standard fonts draw: printable ASCII, Latin-1, the WinAnsi extras, and line breaks. */
const drawable = (ch: string): boolean => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || ch === '\n' || ch === '\r' || WIN_ANSI_EXTRA.has(ch);
};

/** `text` in characters the standard fonts have (see the header). */
export function winAnsiText(text: string): string {
  let out = '';
  for (const ch of text) {
    if (drawable(ch)) out += ch;
    else if (SPELLED[ch] !== undefined) out += SPELLED[ch];
    else if (/\s/u.test(ch)) out += ' ';
    else {
      const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += bare !== '' && [...bare].every(drawable) ? bare : '?';
    }
  }
  return out;
}

/** The text-taking methods of a pdfkit document that measure or draw a string. */
interface TextMethods {
  text(...args: unknown[]): unknown;
  widthOfString(...args: unknown[]): number;
  heightOfString(...args: unknown[]): number;
}

/**
 * Makes `doc` draw and measure every string as `winAnsiText` spells it, whoever calls it
 * (this code or a library drawing on it, like the QR-bill's payment part). Returns `doc`.
 */
export function drawsWinAnsi<D extends object>(doc: D): D {
  const d = doc as unknown as TextMethods;
  for (const name of ['text', 'widthOfString', 'heightOfString'] as const) {
    const original = d[name].bind(d) as (...args: unknown[]) => never;
    d[name] = (first: unknown, ...rest: unknown[]) =>
      original(typeof first === 'string' ? winAnsiText(first) : first, ...rest);
  }
  return doc;
}
