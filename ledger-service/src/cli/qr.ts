import { encode } from 'uqr';

/**
 * A QR code drawn with text, two modules per character cell (▀ ▄ █), so an authenticator
 * app on a phone can scan an otpauth:// URI straight from the terminal.
 *
 * With `color` (a terminal), dark modules are drawn black on a bright white background set
 * with ANSI escapes, so the code reads the same on light and dark terminal themes. Without
 * it (a file, a pipe) there are no escapes and the light modules are the ones drawn: on the
 * usual light-on-dark terminal that shows dark modules on a light field, as scanners expect.
 */
export function terminalQr(text: string, opts: { color: boolean }): string[] {
  // quiet zone of two modules: scanners want one; more makes the code needlessly large
  const { data } = encode(text, { ecc: 'L', border: 2 });
  const ink = (row: number, col: number) => {
    const dark = data[row]?.[col] ?? false;
    return opts.color ? dark : !dark;
  };
  const lines: string[] = [];
  for (let row = 0; row < data.length; row += 2) {
    let line = '';
    for (let col = 0; col < data[row]!.length; col++) {
      const top = ink(row, col);
      // an odd number of rows leaves the last line's lower half outside the code: no ink
      const bottom = row + 1 < data.length && ink(row + 1, col);
      line += top ? (bottom ? '█' : '▀') : bottom ? '▄' : ' ';
    }
    lines.push(opts.color ? `\x1b[30;107m${line}\x1b[0m` : line);
  }
  return lines;
}

/** Reads a code drawn by terminalQr without color back into its modules (true = dark); for tests. */
export function modulesOf(lines: readonly string[]): boolean[][] {
  const width = [...(lines[0] ?? '')].length;
  const rows: boolean[][] = [];
  for (const line of lines) {
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    for (const ch of line) {
      top.push(!(ch === '█' || ch === '▀'));
      bottom.push(!(ch === '█' || ch === '▄'));
    }
    rows.push(top, bottom);
  }
  // the code is square: a last half line below it is not part of it
  return rows.slice(0, width);
}
