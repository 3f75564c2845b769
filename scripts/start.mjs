/**
 * `npm start`: builds the compiled JavaScript first when it is missing or older than the
 * sources (scripts/build.mjs, about a second), then runs it (dist/start.js, from
 * scripts/start.ts). Plain JavaScript, so nothing has to be transpiled before the services
 * start; `npm ci && npm start` stay the two commands.
 */
import { buildIsFresh, COMPILED } from './compiled.mjs';
import { pathToFileURL } from 'node:url';

if (!buildIsFresh()) {
  const { buildIfStale } = await import('./build.mjs');
  try {
    await buildIfStale((line) => process.stderr.write(`start: ${line}\n`));
  } catch (err) {
    process.stderr.write(`start: ${err.message}\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(COMPILED.start).href);
