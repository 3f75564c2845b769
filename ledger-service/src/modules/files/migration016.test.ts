/**
 * Migration 016 on a database that has files the old way: a throw-away database migrated to
 * 015, journal and e-mail attachments written with their bytes inline (registered as documents
 * by 013's trigger, and one older row the trigger never saw), then 016: the bytes are in the
 * document store once, the byte columns and the trigger are gone, the old readers (download
 * URL, the mail worker's read of a stored attachment) get the same bytes; down puts the columns back with their bytes.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, withTenant, type Db } from '../../db/knex.ts';
import { migrationSource } from '../../db/migrations/index.ts';
import { recreateDatabase } from '../../../../scripts/database.ts';
import { TEST_DATABASE_URL } from '../../../test/helpers.ts';
import { readJournalFile } from '../journal/reads.ts';
import type { StorageKind } from './storage.ts';
import { documentBytes, sha256Hex } from './store.ts';

/** The project's migrations up to `last` (later ones of work in progress do not matter here). */
const until = (last: string): Knex.MigrationSource<string> => ({
  async getMigrations() {
    return (await migrationSource.getMigrations([])).filter((n) => n <= last).sort();
  },
  getMigrationName: (n) => n,
  getMigration: (n) => migrationSource.getMigration(n),
});

/** The file tables before 016 (bytes inline, no document yet): not the typed rows of today (db/tables.ts). */
type LegacyFileRow = { id: number; data: Buffer } & Record<string, unknown>;

const receipt = Buffer.from('%PDF-1.4\n% a receipt attached to two entries and e-mailed\n');
const legacy = Buffer.from('%PDF-1.4\n% a file from before the documents\n');

async function columnExists(db: Db, table: string, column: string): Promise<boolean> {
  const { rows } = await db.raw(`select 1 from information_schema.columns where table_name = ? and column_name = ?`, [
    table,
    column,
  ]);
  return rows.length > 0;
}

t.test(
  '016 moves inline bytes into the store once, drops the byte columns and the trigger; down restores them',
  async (t) => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${url.pathname.slice(1)}_m016_${randomBytes(4).toString('hex')}`;
    await recreateDatabase(url.toString());
    const db = createDb(url.toString(), { poolMax: 2 });
    t.teardown(async () => {
      await db.destroy();
      const admin = createDb(Object.assign(new URL(url), { pathname: '/postgres' }).toString(), { poolMax: 1 });
      await admin.raw(`drop database if exists ?? with (force)`, [url.pathname.slice(1)]);
      await admin.destroy();
    });

    await db.migrate.latest({ migrationSource: until('015_payment_reference_sequence') });
    // the test connects as the superuser: RLS does not hide rows from it
    const [co] = (await db('companies')
      .insert({ dataset: `m016-${randomBytes(3).toString('hex')}`, name: 'Old Files AG', base_currency: 'CHF' })
      .returning('id')) as { id: number }[];
    const companyId = co!.id;
    const entry = async (reference: string) =>
      (
        (await db('gl_transactions')
          .insert({ company_id: companyId, reference, transdate: '2024-03-15', currency: 'CHF', status: 'posted' })
          .returning('id')) as { id: number }[]
      )[0]!.id;
    const [je1, je2, je3] = [await entry('GL-1'), await entry('GL-2'), await entry('GL-3')];
    const glFile = async (journalId: number, name: string, data: Buffer) =>
      (
        (await db<LegacyFileRow>('gl_files')
          .insert({
            company_id: companyId,
            journal_id: journalId,
            name,
            media_type: 'application/pdf',
            size: data.length,
            data,
            sha256: sha256Hex(data),
          })
          .returning('id')) as { id: number }[]
      )[0]!.id;
    const f1 = await glFile(je1, 'receipt.pdf', receipt);
    const f2 = await glFile(je2, 'copy.pdf', receipt);
    // a row written before any trigger existed: bytes inline, no document
    await db.raw(`alter table gl_files disable trigger register_document`);
    const f3 = await glFile(je3, 'old.pdf', legacy);
    await db.raw(`alter table gl_files enable trigger register_document`);
    const [msg] = (await db('messages')
      .insert({
        company_id: companyId,
        kind: 'other',
        from_address: 'books@example.test',
        to_addresses: ['a@b.test'],
        cc_addresses: [],
        subject: 'Receipt',
        body: 'attached',
        message_id: '<m016@test>',
      })
      .returning('id')) as { id: number }[];
    await db<LegacyFileRow>('message_attachments').insert({
      company_id: companyId,
      message_id: msg!.id,
      position: 0,
      filename: 'receipt.pdf',
      media_type: 'application/pdf',
      data: receipt,
    });

    const before = await db('documents').where({ company_id: companyId }).count({ n: '*' }).first();
    t.equal(Number(before!.n), 1, 'before: the trigger registered the receipt once; the old row is no document');
    t.equal(await columnExists(db, 'gl_files', 'data'), true);

    await db.migrate.latest({ migrationSource: until('016_documents_once') });

    t.equal(await columnExists(db, 'gl_files', 'data'), false, 'gl_files carries no bytes');
    t.equal(await columnExists(db, 'message_attachments', 'data'), false, 'message_attachments carries no bytes');
    const triggers = await db.raw(`select tgname from pg_trigger where tgname = 'register_document'`);
    t.equal(triggers.rows.length, 0, 'the trigger is gone from every table');
    const fn = await db.raw(`select 1 from pg_proc where proname = 'register_attachment_document'`);
    t.equal(fn.rows.length, 0, 'and its function');

    const docs = (await db('documents')
      .where({ company_id: companyId })
      .orderBy('id')
      .select('id', 'sha256', 'name', 'source', 'size')) as {
      id: number;
      sha256: string;
      name: string;
      source: string;
      size: number;
    }[];
    t.match(docs, [
      { sha256: sha256Hex(receipt), name: 'receipt.pdf', source: 'upload', size: receipt.length },
      { sha256: sha256Hex(legacy), name: 'old.pdf', source: 'upload', size: legacy.length },
    ]);
    const contents = (await db('document_contents')
      .where({ company_id: companyId })
      .orderBy('document_id')
      .select('document_id', 'data')) as { document_id: number; data: Buffer }[];
    t.same(
      contents.map((c) => [c.document_id, c.data]),
      [
        [docs[0]!.id, receipt],
        [docs[1]!.id, legacy],
      ],
      'each content stored once',
    );
    const links = await db('gl_files').orderBy('id').select('id', 'document_id');
    t.same(links, [
      { id: f1, document_id: docs[0]!.id },
      { id: f2, document_id: docs[0]!.id },
      { id: f3, document_id: docs[1]!.id },
    ]);
    t.same(await db('message_attachments').select('document_id'), [{ document_id: docs[0]!.id }]);
    const nullable = await db.raw(
      `select table_name, is_nullable from information_schema.columns where column_name = 'document_id' and ` +
        `table_name in ('gl_files', 'message_attachments') order by table_name`,
    );
    t.same(
      nullable.rows,
      [
        { table_name: 'gl_files', is_nullable: 'NO' },
        { table_name: 'message_attachments', is_nullable: 'NO' },
      ],
      'every link names its document',
    );

    // the old readers: the download of /gl/transactions/{id}/files/{fileId} and the mail worker's load
    await withTenant(db, companyId, async (tx) => {
      t.same(await readJournalFile(tx, companyId, je2, f2), {
        name: 'copy.pdf',
        media_type: 'application/pdf',
        data: receipt,
      });
      t.same(await readJournalFile(tx, companyId, je3, f3), {
        name: 'old.pdf',
        media_type: 'application/pdf',
        data: legacy,
      });
      // the mail worker's read of an attachment as it was with 016 (today's also reads migration 046's columns)
      const links = await tx('message_attachments as a')
        .join('documents as d', function sameCompany() {
          this.on('d.id', '=', 'a.document_id').andOn('d.company_id', '=', 'a.company_id');
        })
        .where({ 'a.company_id': companyId, 'a.message_id': msg!.id })
        .select<{ filename: string; id: number; sha256: string; storage: StorageKind }[]>(
          'a.filename',
          'd.id',
          'd.sha256',
          'd.storage',
        );
      t.same(await Promise.all(links.map(async (l) => [l.filename, await documentBytes(tx, companyId, l)])), [
        ['receipt.pdf', receipt],
      ]);
    });

    await db.migrate.down({ migrationSource: until('016_documents_once') });
    t.same(
      (await db<LegacyFileRow>('gl_files').orderBy('id').select('id', 'data')).map(
        (r: { id: number; data: Buffer }) => [r.id, r.data],
      ),
      [
        [f1, receipt],
        [f2, receipt],
        [f3, legacy],
      ],
      'down: the bytes back in their rows',
    );
    t.same(await db<LegacyFileRow>('message_attachments').select('data'), [{ data: receipt }]);
    t.equal(
      (await db.raw(`select tgname from pg_trigger where tgname = 'register_document'`)).rows.length,
      3,
      'down: the trigger back on the three tables',
    );

    await db.migrate.latest({ migrationSource: until('016_documents_once') });
    t.equal(
      Number((await db('document_contents').where({ company_id: companyId }).count({ n: '*' }).first())!.n),
      2,
      'up again: still one copy per content',
    );
  },
);
