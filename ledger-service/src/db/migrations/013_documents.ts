import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';
import { PGBOSS_SCHEMA } from './008_mail.ts';

/** The pg-boss queue of extraction jobs (modules/inbox/worker.ts); created here so the first upload finds it. */
export const INBOX_QUEUE = 'inbox_extract';
/** Extraction is deterministic: a retry only helps after a crash or a database outage. */
export const INBOX_QUEUE_OPTIONS = {
  policy: 'standard',
  retryLimit: 3,
  retryDelay: 10,
  retryBackoff: true,
  expireInSeconds: 300,
  retentionMinutes: 60 * 24 * 14,
};

/**
 * Documents and the AI inbox (modules/files, modules/inbox; docs/documents.md).
 *
 * - `documents`: one row per distinct content of a company (unique on company_id + sha256):
 *   the same bytes uploaded twice are one document, listed under every record they are
 *   attached to. `storage` says where its bytes live (`postgres`: `document_contents`,
 *   `directory`: a file named by the hash), so switching the store later strands nothing.
 * - `document_contents`: the bytes of documents kept in Postgres (the default store).
 * - `inbox_entries`: uploads to the AI inbox with their extraction state and proposal.
 *
 * The attachment tables stay the links (their ids keep the old download URLs working) and
 * get a `document_id`. `arap_files` rows now carry no bytes: they move to the document store
 * here (existing rows) and on every write (modules/arap/store.ts). Tables whose
 * writers still store bytes inline (`message_attachments`, `gl_files`) register their files
 * as documents through a trigger, so every stored file is a document from the first insert
 * on, whoever writes it; their bytes are kept in place as well until those writers go
 * through the store (docs/documents.md, "Migration path").
 */
const ATTACHMENT_TABLES = [
  { table: 'arap_files', nameColumn: 'name', source: 'upload', moveBytes: true, createdAt: 'f.created_at' },
  { table: 'gl_files', nameColumn: 'name', source: 'upload', moveBytes: false, createdAt: 'f.created_at' },
  { table: 'message_attachments', nameColumn: 'filename', source: 'email', moveBytes: false, createdAt: 'now()' },
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('documents', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('sha256').notNullable();
    t.text('name').notNullable();
    t.text('media_type').notNullable();
    t.bigInteger('size').notNullable();
    t.text('source').notNullable();
    t.text('storage').notNullable().defaultTo('postgres');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['company_id', 'sha256']);
    t.index(['company_id', 'created_at', 'id']);
  });
  await knex.raw(
    `alter table documents add constraint documents_source_check check (source in ('upload','inbox','email'))`,
  );
  await knex.raw(
    `alter table documents add constraint documents_storage_check check (storage in ('postgres','directory'))`,
  );

  await knex.schema.createTable('document_contents', (t) => {
    t.bigInteger('document_id').primary().references('documents.id').onDelete('CASCADE');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.binary('data').notNullable();
  });

  await knex.schema.createTable('inbox_entries', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('document_id').notNullable().references('documents.id');
    // the name it was uploaded under (the document keeps the first name its bytes had)
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('new');
    t.text('reason');
    t.text('text');
    t.jsonb('extracted');
    t.bigInteger('transaction_id').references('arap_transactions.id').onDelete('SET NULL');
    t.bigInteger('created_by').references('users.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('extracted_at', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['company_id', 'status', 'id']);
    t.index(['document_id']);
  });
  await knex.raw(
    `alter table inbox_entries add constraint inbox_entries_status_check check (status in ` +
      `('new','extracted','failed','booked','discarded'))`,
  );

  for (const table of ['documents', 'document_contents', 'inbox_entries']) {
    await enableTenantRls(knex, table);
  }
  await knex.raw(`select ${PGBOSS_SCHEMA}.create_queue(?, ?::json)`, [
    INBOX_QUEUE,
    JSON.stringify(INBOX_QUEUE_OPTIONS),
  ]);

  // Registers the file of an attachment row written with its bytes inline as a document
  // (its content stored once per company) and links the row to it. Rows written through the
  // document store already carry document_id and no bytes. SECURITY INVOKER: runs as the
  // tenant role, so the documents' RLS applies as for any other write.
  await knex.raw(`
    create or replace function register_attachment_document() returns trigger language plpgsql as $$
    declare
      hash text;
      doc bigint;
      file_name text;
    begin
      if new.document_id is not null or new.data is null then
        return new;
      end if;
      hash := encode(sha256(new.data), 'hex');
      if tg_argv[0] = 'filename' then file_name := new.filename; else file_name := new.name; end if;
      insert into documents (company_id, sha256, name, media_type, size, source, storage)
        values (new.company_id, hash, file_name, new.media_type, length(new.data), tg_argv[1], 'postgres')
        on conflict (company_id, sha256) do nothing
        returning id into doc;
      if doc is null then
        select id into doc from documents where company_id = new.company_id and sha256 = hash;
      else
        insert into document_contents (document_id, company_id, data) values (doc, new.company_id, new.data);
      end if;
      new.document_id := doc;
      if tg_argv[2] = 'move' then
        new.data := null;
      end if;
      return new;
    end
    $$`);

  for (const a of ATTACHMENT_TABLES) {
    if (!(await knex.schema.hasTable(a.table))) continue;
    await knex.schema.alterTable(a.table, (t) => {
      t.bigInteger('document_id').references('documents.id');
      t.index(['document_id']);
    });
    if (a.moveBytes) await knex.raw(`alter table ?? alter column data drop not null`, [a.table]);
    // existing rows: the owner runs migrations, so RLS does not hide other companies' rows here
    // (FORCE applies it to the owner too: lift it for the copy)
    await knex.raw(`alter table ?? no force row level security`, [a.table]);
    await knex.raw(`alter table documents no force row level security`);
    await knex.raw(`alter table document_contents no force row level security`);
    await knex.raw(
      `insert into documents (company_id, sha256, name, media_type, size, source, created_at)
       select distinct on (f.company_id, encode(sha256(f.data), 'hex'))
              f.company_id, encode(sha256(f.data), 'hex'), f.??, f.media_type, length(f.data), ?, ${a.createdAt}
         from ?? f
        where f.data is not null
        order by f.company_id, encode(sha256(f.data), 'hex'), f.id
       on conflict (company_id, sha256) do nothing`,
      [a.nameColumn, a.source, a.table],
    );
    await knex.raw(
      `insert into document_contents (document_id, company_id, data)
       select distinct on (d.id) d.id, d.company_id, f.data
         from ?? f join documents d on d.company_id = f.company_id and d.sha256 = encode(sha256(f.data), 'hex')
        where f.data is not null
       on conflict (document_id) do nothing`,
      [a.table],
    );
    await knex.raw(
      `update ?? f set document_id = d.id ${a.moveBytes ? ', data = null' : ''}
         from documents d where d.company_id = f.company_id and f.data is not null
           and d.sha256 = encode(sha256(f.data), 'hex')`,
      [a.table],
    );
    await knex.raw(`alter table ?? force row level security`, [a.table]);
    await knex.raw(`alter table documents force row level security`);
    await knex.raw(`alter table document_contents force row level security`);
    // trigger arguments are literals (constants of this file, not input)
    await knex.raw(
      `create trigger register_document before insert on ?? for each row execute function ` +
        `register_attachment_document('${a.nameColumn}', '${a.source}', '${a.moveBytes ? 'move' : 'keep'}')`,
      [a.table],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const a of ATTACHMENT_TABLES) {
    if (!(await knex.schema.hasTable(a.table))) continue;
    await knex.raw(`drop trigger if exists register_document on ??`, [a.table]);
    if (a.moveBytes) {
      await knex.raw(`alter table ?? no force row level security`, [a.table]);
      await knex.raw(`alter table document_contents no force row level security`);
      await knex.raw(
        `update ?? f set data = c.data from document_contents c where c.document_id = f.document_id and f.data is null`,
        [a.table],
      );
      await knex.raw(`alter table ?? force row level security`, [a.table]);
      await knex.raw(`alter table ?? alter column data set not null`, [a.table]);
    }
    await knex.schema.alterTable(a.table, (t) => {
      t.dropIndex(['document_id']);
      t.dropColumn('document_id');
    });
  }
  await knex.raw('drop function if exists register_attachment_document()');
  await knex.raw(`delete from ${PGBOSS_SCHEMA}.job where name = ?`, [INBOX_QUEUE]);
  await knex.raw(`select ${PGBOSS_SCHEMA}.delete_queue(?)`, [INBOX_QUEUE]);
  for (const t of ['inbox_entries', 'document_contents', 'documents']) {
    await knex.schema.dropTableIfExists(t);
  }
}
