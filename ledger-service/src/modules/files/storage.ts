import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '@ledger/shared/config';
import type { Tx } from '../../db/knex.ts';

/**
 * Where the bytes of documents live, behind one small interface (docs/documents.md
 * "Storage"). Content is addressed by company and SHA-256, so a put of bytes already
 * stored is a no-op and a store never holds the same bytes of a company twice.
 *
 * - `postgres` (default): `document_contents` (bytea), in the request's transaction — a
 *   rolled-back request leaves nothing behind.
 * - `directory`: one file per content under `<root>/<company_id>/<sha[0..2]>/<sha>`, written
 *   to a temporary name and renamed, so a reader never sees half a file. A request that
 *   rolls back after the put leaves an unreferenced file (harmless: content-addressed, the
 *   next put of the same bytes reuses it).
 *
 * An S3-compatible bucket is a third implementation of the same three methods (key
 * `<company_id>/<sha256>`); docs/documents.md says how it plugs in.
 */
export type StorageKind = 'postgres' | 'directory';

export interface FileStore {
  readonly kind: StorageKind;
  put(tx: Tx, ref: ContentRef, data: Buffer): Promise<void>;
  get(tx: Tx, ref: ContentRef): Promise<Buffer | undefined>;
}

export interface ContentRef {
  companyId: number;
  documentId: number;
  sha256: string;
}

export const postgresStore: FileStore = {
  kind: 'postgres',
  async put(tx, ref, data) {
    await tx('document_contents')
      .insert({ document_id: ref.documentId, company_id: ref.companyId, data })
      .onConflict(['company_id', 'document_id'])
      .ignore();
  },
  async get(tx, ref) {
    const row = await tx('document_contents')
      .where({ company_id: ref.companyId, document_id: ref.documentId })
      .first('data');
    return row?.data;
  },
};

const HASH = /^[0-9a-f]{64}$/;

export function directoryStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (ref: ContentRef) => {
    // the hash is ours (computed from the bytes), checked anyway: it names a file
    if (!HASH.test(ref.sha256) || !Number.isSafeInteger(ref.companyId))
      throw new Error(`bad content reference ${ref.companyId}/${ref.sha256}`);
    return join(base, String(ref.companyId), ref.sha256.slice(0, 2), ref.sha256);
  };
  return {
    kind: 'directory',
    async put(_tx, ref, data) {
      const file = pathOf(ref);
      const present = await stat(file).then(
        (s) => s.size === data.length,
        () => false,
      );
      if (present) return;
      await mkdir(join(file, '..'), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
    },
    async get(_tx, ref) {
      return readFile(pathOf(ref)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
    },
  };
}

export interface DocumentStoreConfig {
  /** where new documents go; documents keep the store they were written to */
  store: FileStore;
  /** every store a document may name, to read it back after a switch */
  stores: Readonly<Record<StorageKind, FileStore>>;
}

/**
 * DOCUMENT_STORE=postgres (default) or directory; DOCUMENT_DIR names the directory
 * (default `<dataDir>/documents`).
 */
export function documentStoreFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
): DocumentStoreConfig {
  const kind = (env.DOCUMENT_STORE ?? 'postgres').trim() || 'postgres';
  if (kind !== 'postgres' && kind !== 'directory')
    throw new ConfigError(`DOCUMENT_STORE must be postgres or directory, got "${kind}"`);
  const directory = directoryStore(env.DOCUMENT_DIR?.trim() || join(dataDir, 'documents'));
  const stores = { postgres: postgresStore, directory };
  return { store: stores[kind], stores };
}

let configured: DocumentStoreConfig = {
  store: postgresStore,
  stores: { postgres: postgresStore, directory: directoryStore('./data/documents') },
};

/**
 * Set once at start (server.ts). Process-wide rather than threaded through every request:
 * attachments of all modules go through it, and a ledger process has one store.
 */
export function configureDocumentStore(config: DocumentStoreConfig): void {
  configured = config;
}

export function documentStore(): DocumentStoreConfig {
  return configured;
}
