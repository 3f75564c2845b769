/**
 * The embedded database's template (embedded.ts): a cluster in memory, migrated, written as a
 * gzipped tarball. Run by the build (scripts/build.mjs), never by the services.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { servePGlite } from './embedded.ts';
import { createDb } from './knex.ts';
import { migrateLatest } from './migrate.ts';

export async function writeEmbeddedTemplate(file: string): Promise<void> {
  const pglite = await PGlite.create('memory://');
  const embedded = await servePGlite(pglite);
  try {
    const db = createDb(embedded.url, { poolMax: 1 });
    try {
      await migrateLatest(db);
    } finally {
      await db.destroy();
    }
    const tarball = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, tarball);
    renameSync(partial, file);
  } finally {
    await embedded.stop();
  }
}
