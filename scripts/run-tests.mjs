#!/usr/bin/env node
// The test-file runner of `npm test` (scripts/test.sh; docs/testing.md "The runner").
//
// Why not tap's own runner: it starts every test file with two module hooks of its own
// (`@tapjs/processinfo`, always, for coverage bookkeeping this project turns off; `@tapjs/mock`'s,
// unused here), and each hook runs Node's module loading through a hooks thread. Measured on the
// same 14 compiled files: 87 s of CPU through tap's runner, 54 s as `node --enable-source-maps
// <file>`, the same 688 assertions. A tap test file is a program that prints its own TAP and sets
// its exit code, so running it is all a runner has to do; this one starts each file as plain
// `node`, as many at once as asked, and reports in TAP:
//   - `ok N - <file> # time=<ms>ms` per file (the time from its start to its exit), or `not ok`,
//     preceded by the file's whole output, indented as a subtest, when it failed;
//   - at the end `# { total: …, pass: …, fail: … }`, the sums of the files' own summaries, which
//     .ci/run adds up, and the exit code 1 when any file failed.
// A file fails when it exits non-zero, is killed, or ends without its summary line (a crash
// before its end): then it counts one failed assertion more than it reported.
// A file times out by itself after TAP_TIMEOUT seconds (tap's own setting, taken from
// package.json's `tap.timeout`); the runner kills its process group TEST_KILL_GRACE seconds
// (default 30) after that, for a file whose event loop is stuck and so cannot time itself out.
//
// Usage: node scripts/run-tests.mjs [--jobs=N] [--timeout=S] [--node-arg=ARG …] [--] file …
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The summary line a tap test file prints last: `# { total: 43, pass: 42, fail: 1 }`. */
const summaryLine = /^# \{ (total: \d+.*) \}$/;

/** Counts of a file's summary line, or undefined when the file printed none. */
export function fileSummary(output) {
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = summaryLine.exec(lines[i].trimEnd());
    if (!m) continue;
    const counts = {};
    for (const pair of m[1].split(',')) {
      const [key, value] = pair.split(':').map((s) => s.trim());
      if (/^\d+$/.test(value)) counts[key] = Number(value);
    }
    return counts;
  }
  return undefined;
}

/** Whether a file passed, and the counts it adds to the run's. */
export function fileResult({ code, signal, output }) {
  const summary = fileSummary(output);
  const counts = { total: summary?.total ?? 0, pass: summary?.pass ?? 0, fail: summary?.fail ?? 0 };
  for (const key of ['skip', 'todo']) counts[key] = summary?.[key] ?? 0;
  const ok = code === 0 && signal === null && summary !== undefined && counts.fail === 0;
  if (!ok && counts.fail === 0) {
    // it exited badly or crashed before its end: one failure more, so that the run's counts say so
    counts.total += 1;
    counts.fail += 1;
  }
  return { ok, counts };
}

function parseArgs(argv) {
  const options = { jobs: Number(process.env.TEST_JOBS) || availableParallelism(), nodeArgs: [], files: [] };
  let filesOnly = false;
  for (const arg of argv) {
    if (filesOnly || !arg.startsWith('--')) options.files.push(arg);
    else if (arg === '--') filesOnly = true;
    else if (arg.startsWith('--jobs=')) options.jobs = Math.max(1, Number(arg.slice(7)) || 1);
    else if (arg.startsWith('--node-arg=')) options.nodeArgs.push(arg.slice(11));
    else if (arg.startsWith('--timeout=')) options.timeout = Number(arg.slice(10));
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** tap's per-file timeout (seconds), as package.json configures it for tap's runner. */
function timeoutSeconds() {
  // TAP_TIMEOUT set by hand (not by a tap runner above us, which sets TAP=1 as well)
  if (process.env.TAP_TIMEOUT && !process.env.TAP) return Number(process.env.TAP_TIMEOUT);
  const tap = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).tap ?? {};
  return Number(tap.timeout ?? 30);
}

const running = new Set();

/**
 * The files' environment: ours, less what a tap runner above us (a developer's `npx tap` over the
 * runner's own test) put there for its children: `TAP=1` and its kin would make the file report
 * to that runner instead of printing its own TAP, and its processinfo hook in NODE_OPTIONS is the
 * cost this runner exists to avoid.
 */
export function fileEnv(env, timeout) {
  const clean = {};
  for (const [key, value] of Object.entries(env)) if (!/^(TAP|_TAPJS_)/.test(key)) clean[key] = value;
  if (clean.NODE_OPTIONS) {
    clean.NODE_OPTIONS = clean.NODE_OPTIONS.split(/\s+/)
      .filter((option) => !option.includes('@tapjs/processinfo'))
      .join(' ');
  }
  return { ...clean, TAP_TIMEOUT: String(timeout) };
}

function runFile(file, nodeArgs, timeout) {
  const grace = Number(process.env.TEST_KILL_GRACE ?? 30);
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--enable-source-maps', ...nodeArgs, file], {
      cwd: ROOT,
      // its own process group, so that a file that hangs is stopped with whatever it started
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: fileEnv(process.env, timeout),
    });
    running.add(child);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    let killed = false;
    const backstop = setTimeout(
      () => {
        killed = true;
        killGroup(child, 'SIGKILL');
      },
      (timeout + grace) * 1000,
    );
    child.on('close', (code, signal) => {
      clearTimeout(backstop);
      running.delete(child);
      let output = Buffer.concat(chunks).toString('utf8');
      if (killed) output += `\n# run-tests: killed ${timeout + grace} s after its start\n`;
      resolve({ file, code, signal, output, ms: performance.now() - started });
    });
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function indent(text) {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => (line ? `    ${line}` : ''))
    .join('\n');
}

async function main() {
  const { jobs, nodeArgs, files, ...options } = parseArgs(process.argv.slice(2));
  const timeout = options.timeout || timeoutSeconds();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of running) killGroup(child, 'SIGTERM');
      process.exit(1);
    });
  }
  const started = performance.now();
  const totals = { total: 0, pass: 0, fail: 0, skip: 0, todo: 0 };
  const failed = [];
  let next = 0;
  let reported = 0;
  process.stdout.write(`TAP version 14\n# run-tests: ${files.length} files, ${jobs} at once\n`);
  async function worker() {
    while (next < files.length) {
      const result = await runFile(files[next++], nodeArgs, timeout);
      const { ok, counts } = fileResult(result);
      for (const key of Object.keys(totals)) totals[key] += counts[key];
      reported += 1;
      const line = `${ok ? 'ok' : 'not ok'} ${reported} - ${result.file} # time=${result.ms.toFixed(3)}ms`;
      if (ok) process.stdout.write(`${line}\n`);
      else {
        failed.push(result.file);
        process.stdout.write(`# Subtest: ${result.file}\n${indent(result.output)}\n${line}\n`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  const shown = Object.entries(totals)
    .filter(([key, n]) => n > 0 || key === 'total' || key === 'pass')
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ');
  process.stdout.write(`\n1..${files.length}\n`);
  for (const file of failed) process.stdout.write(`# failed: ${file}\n`);
  process.stdout.write(`# { ${shown} }\n# time=${(performance.now() - started).toFixed(3)}ms\n`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    process.stderr.write(`run-tests: ${err.message}\n`);
    process.exit(1);
  });
}
