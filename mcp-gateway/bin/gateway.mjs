#!/usr/bin/env node
// `gateway` command: the compiled gateway (mcp-gateway/dist/cli.js, `npm run build`) when it is
// up to date with the sources, otherwise the TypeScript sources through tsx (a dev dependency).
import { pathToFileURL } from 'node:url';
import { buildIsFresh, COMPILED } from '../../scripts/compiled.mjs';

let main;
if (buildIsFresh()) {
  ({ main } = await import(pathToFileURL(COMPILED.gatewayCli).href));
} else {
  const { register } = await import('tsx/esm/api').catch(() => {
    process.stderr.write(
      'gateway: the compiled build is missing or out of date and tsx is not installed: run "npm run build"\n',
    );
    process.exit(1);
  });
  register();
  ({ main } = await import('../src/cli.ts'));
}
const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
