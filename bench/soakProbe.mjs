/**
 * Loaded into the gateway process by bench/soak.ts only (NODE_OPTIONS="--expose-gc
 * --import=…/soakProbe.mjs"), never by the gateway itself: a loopback listener on
 * BENCH_PROBE_PORT that
 *
 * - `GET /memory`: forces full garbage collections and answers `process.memoryUsage()`
 *   taken right after them (the "floor" the soak follows over time);
 * - `GET /snapshot?file=/abs/path.heapsnapshot`: writes a V8 heap snapshot there (after a GC),
 *   for comparing object counts between two moments of a run (BENCH_SOAK_SNAPSHOTS).
 *
 * Plain JavaScript so that it loads before the gateway registers tsx.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

const port = Number(process.env.BENCH_PROBE_PORT);

/** Two full collections with a turn of the event loop between them (finalizers, weak refs). */
async function collect() {
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
}

/** The kernel's split of the resident set: anonymous memory (heaps, malloc) and mapped files (code, libraries). */
function rssParts() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rssAnon: kib('RssAnon'), rssFile: kib('RssFile') };
  } catch {
    return {}; // not Linux
  }
}

/** V8's heap spaces: committed (physical) and used bytes each. */
function spaces() {
  return Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, { physical: s.physical_space_size, used: s.space_used_size }]),
  );
}

if (port > 0) {
  if (typeof globalThis.gc !== 'function') throw new Error('soakProbe.mjs needs --expose-gc');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://probe');
    const answer = (status, body) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    (async () => {
      if (url.pathname === '/memory') {
        const started = performance.now();
        await collect();
        return answer(200, {
          ...process.memoryUsage(),
          ...rssParts(),
          spaces: spaces(),
          gcMs: performance.now() - started,
          uptime: process.uptime(),
        });
      }
      if (url.pathname === '/snapshot' && url.searchParams.get('file')) {
        await collect();
        return answer(200, { file: writeHeapSnapshot(url.searchParams.get('file')) });
      }
      return answer(404, { error: 'not found' });
    })().catch((err) => answer(500, { error: String(err) }));
  });
  server.listen(port, '127.0.0.1');
  // the probe never keeps the gateway alive on shutdown
  server.unref();
}
