/**
 * `npm run bench`: every benchmark part that exists, in one run. Each part prints its
 * figures and the ratio against the baseline it measures in the same run, and writes
 * JSON to bench/results/.
 */
import { existsSync } from 'node:fs';

// startup first: it measures npm start on a machine the other parts have not yet loaded
const parts = [
  './startup.ts',
  './ledger.ts',
  './gateway.ts',
  './toolList.ts',
  './soak.ts',
  './invoices.ts',
  './reports.ts',
  './cluster.ts',
  './documents.ts',
  './bank.ts',
  './batch.ts',
  './vat.ts',
  './recurring.ts',
  './dunning.ts',
];
for (const part of parts) {
  if (!existsSync(new URL(part, import.meta.url))) continue;
  const mod = (await import(part)) as { run(): Promise<void> };
  await mod.run();
}
