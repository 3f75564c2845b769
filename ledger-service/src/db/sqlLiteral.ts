/**
 * A text as an SQL string literal, as pg's `escapeLiteral` writes it: quotes doubled, and when
 * the text holds a backslash, backslashes doubled inside an `E'…'` literal (so the text means
 * the same whatever `standard_conforming_strings` is). The one-message bill sends its values this
 * way (tenantTransaction.ts `literalsOf`); pg's own function builds the literal a character at a
 * time, which for a bill's few kilobytes of JSON was a third of everything a bill allocated.
 */
export function sqlLiteral(text: string): string {
  const quoted = text.includes("'") ? text.replaceAll("'", "''") : text;
  if (!text.includes('\\')) return `'${quoted}'`;
  return ` E'${quoted.replaceAll('\\', '\\\\')}'`;
}
