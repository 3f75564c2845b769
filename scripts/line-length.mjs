#!/usr/bin/env node
// No line of code over 120 characters (the formatter's width). Biome's formatter wraps code but never
// splits a string literal or a comment, so this check catches what it leaves: every tracked .ts, .tsx,
// .mjs and .sh file outside data (fixtures/ and schemas/ hold data; .json, .md and .xml files are data
// and are not listed here). It prints file:line (length) for each long line and exits 1 if there is one.
// Run by `npm run lint` (and so by `npm test`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const limit = 120;
const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs', '*.sh'], { encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && !/(^|\/)(fixtures|schemas)\//.test(file));

const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // tracked but deleted in the working tree: nothing to check
  }
  text.split('\n').forEach((line, index) => {
    // characters as a reader counts them (code points), not UTF-16 units
    const length = [...line].length;
    if (length > limit) long.push(`${file}:${index + 1} (${length})`);
  });
}

if (long.length > 0) {
  console.error(`${long.length} line(s) over ${limit} characters (split the string or re-wrap the comment):`);
  for (const entry of long) console.error(`  ${entry}`);
  process.exit(1);
}
console.log(`line length: no line over ${limit} characters in ${files.length} files`);
