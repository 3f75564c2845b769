/**
 * The repository's docs stand alone: no tracked file cites the product brief that lives
 * outside the repository (what the product promises is written in docs/), and every
 * relative link of README.md and docs/*.md points at a file that exists — and, with a
 * `#fragment`, at a heading of that file; every repository path they name in a code span exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Tracked files (a fresh clone's, as CI has them), working-tree content. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
}

// spelled in parts so that this file does not cite them itself
const BRIEF = new RegExp(['SPEC', 'DESIGN'].map((name) => `\\b${name}\\.md\\b`).join('|'), 'i');

t.test('no tracked file cites the product brief outside the repository', async (t) => {
  const files = trackedFiles();
  t.ok(files.length > 100, `${files.length} tracked files`);
  const citing: string[] = [];
  for (const file of files) {
    const path = join(ROOT, file);
    if (!existsSync(path) || statSync(path).size > 5_000_000) continue;
    const text = readFileSync(path);
    if (text.includes(0)) continue; // binary
    text
      .toString('utf8')
      .split('\n')
      .forEach((line, i) => {
        if (BRIEF.test(line)) citing.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  t.same(citing, [], 'each promise is cited from docs/ instead');
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The targets of inline links and images, outside code blocks and code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

t.test(
  'every relative link of README.md and docs/*.md resolves to a file (and heading) of the repository',
  async (t) => {
    const docs = trackedFiles().filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));
    t.ok(docs.length >= 10, `${docs.length} documents`);
    const broken: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      const markdown = readFileSync(join(ROOT, doc), 'utf8');
      for (const target of linkTargets(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
        checked++;
        const [rawPath, fragment] = target.split('#') as [string, string | undefined];
        const path = rawPath === '' ? join(ROOT, doc) : resolve(ROOT, dirname(doc), decodeURIComponent(rawPath));
        if (relative(ROOT, path).startsWith('..')) {
          broken.push(`${doc}: ${target} leaves the repository`);
          continue;
        }
        if (!existsSync(path)) {
          broken.push(`${doc}: ${target} (no such file)`);
          continue;
        }
        if (fragment && path.endsWith('.md') && !anchorsOf(readFileSync(path, 'utf8')).has(fragment)) {
          broken.push(`${doc}: ${target} (no heading #${fragment} in ${relative(ROOT, path)})`);
        }
      }
    }
    t.ok(checked > 30, `${checked} relative links checked`);
    t.same(broken, [], 'no broken link');
  },
);

/** Top-level folders of the repository: a code span starting with one names a path in it. */
const TOP = /^(?:ledger-service|mcp-gateway|shared|e2e|scripts|deploy|bench|docs)\//;

t.test('every repository path README.md and docs/*.md name in code spans exists', async (t) => {
  const docs = trackedFiles().filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));
  const missing: string[] = [];
  let checked = 0;
  for (const doc of docs) {
    for (const [, span] of readFileSync(join(ROOT, doc), 'utf8').matchAll(/`([^`\s]+)`/g)) {
      // placeholders (`modules/<area>/`, `src/**/*.test.ts`, `{time}`) name no one path
      if (!TOP.test(span!) || /[<>*{}]/.test(span!)) continue;
      const path = span!.replace(/[#:].*$/, '').replace(/[.,;]$/, '');
      checked++;
      if (!existsSync(join(ROOT, path))) missing.push(`${doc}: ${span}`);
    }
  }
  t.ok(checked > 50, `${checked} paths checked`);
  t.same(missing, [], 'no path that is gone');
});

t.test('the link check itself finds broken links and headings', async (t) => {
  t.same(linkTargets('see [a](a.md#x), ![img](i.png) and `[not](code.md)`\n```\n[no](fence.md)\n```\n'), [
    'a.md#x',
    'i.png',
  ]);
  t.same(
    [...anchorsOf('# Gateway ↔ ledger\n## `GET /x`: y\n## Same\n## Same\n```\n# not a heading\n```\n')],
    ['gateway--ledger', 'get-x-y', 'same', 'same-1'],
  );
  t.ok(BRIEF.test(['DESIGN', 'md'].join('.')) && !BRIEF.test('docs/design.txt'));
});
