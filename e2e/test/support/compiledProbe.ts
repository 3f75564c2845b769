/**
 * Compiled by testRun.test.ts with scripts/build-tests.mjs: prints where it believes it is, so the
 * test can check that a compiled test file finds its fixtures and the parsing threads' modules
 * as its source would.
 */
import { jobModule } from '../../../ledger-service/src/untrusted/job.ts';

process.stdout.write(
  JSON.stringify({
    url: import.meta.url,
    dirname: import.meta.dirname,
    filename: import.meta.filename,
    job: jobModule(import.meta.url, 'statementJob'),
  }),
);
