#!/usr/bin/env node
// The slowest test files of an `npm test` run, printed at its end (scripts/test.sh), so that a file
// that grows slow is seen where the suite's time is spent, not guessed at (docs/testing.md keeps the
// figures). Reads the logs of the run's tap runs, given as `label=path` arguments: tap's own stream
// ends each file with a top-level line `ok N - <file> # time=<ms>ms` (or `not ok …`), which is the
// file's time from its start to its end. Prints the 20 slowest (SLOWEST_TESTS=n for another count)
// and each run's sum, as TAP comments so that the stream stays valid.
import { readFileSync } from 'node:fs';

const count = Number(process.env.SLOWEST_TESTS ?? 20);
const fileLine = /^(?:not )?ok \d+ - (\S+\.test\.[cm]?[jt]s)\b.*# time=([\d.]+)ms/;

/** Each test file's time (ms) in one tap log. */
function fileTimes(text) {
  const times = [];
  for (const line of text.split('\n')) {
    const m = fileLine.exec(line);
    // a compiled file (scripts/build-tests.mjs) is named by its source
    if (m) times.push({ file: m[1].replace(/^\.test-build\/(.*)\.js$/, '$1.ts'), ms: Number(m[2]) });
  }
  return times;
}

const rows = [];
const sums = [];
for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf('=');
  const label = at > 0 ? arg.slice(0, at) : '';
  const path = at > 0 ? arg.slice(at + 1) : arg;
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    continue; // that run did not happen (e.g. the type check stopped npm test)
  }
  const times = fileTimes(text);
  for (const t of times) rows.push({ ...t, label });
  sums.push({ label, files: times.length, ms: times.reduce((s, t) => s + t.ms, 0) });
}

rows.sort((a, b) => b.ms - a.ms);
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);
console.log(`# slowest test files (of ${rows.length}; seconds from the file's start to its end)`);
for (const r of rows.slice(0, count)) console.log(`# ${seconds(r.ms)} s  ${r.file}${r.label ? ` (${r.label})` : ''}`);
for (const s of sums)
  console.log(`# ${s.label || 'run'}: ${s.files} files, ${seconds(s.ms).trim()} s of file time in all`);
