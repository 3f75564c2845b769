#!/usr/bin/env node
// `ledger` command: the compiled CLI (ledger-service/dist/cli.js, `npm run build`; `npm start`
// builds it) when it is up to date with the sources, otherwise the TypeScript sources through
// tsx (a dev dependency), so a command never runs code older than the sources.
import { pathToFileURL } from 'node:url';
import { buildIsFresh, COMPILED } from '../../scripts/compiled.mjs';

let main;
if (buildIsFresh()) {
  ({ main } = await import(pathToFileURL(COMPILED.ledgerCli).href));
} else {
  const { register } = await import('tsx/esm/api').catch(() => {
    process.stderr.write(
      'ledger: the compiled build is missing or out of date and tsx is not installed: run "npm run build"\n',
    );
    process.exit(1);
  });
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exit(await main(process.argv.slice(2)));
