import type { Knex } from 'knex';

/**
 * Every stored file stored once (docs/documents.md, "Migration path").
 *
 * Until now journal entry attachments (`gl_files`) and e-mail attachments
 * (`message_attachments`) kept their bytes in their own rows, and a trigger of migration 013
 * registered a copy of them as a document. Their writers now store the bytes through the
 * document store (`putDocument`, modules/files) and read them back through it, so:
 *
 * 1. any row still carrying bytes without a document (none are expected: 013 copied the old
 *    rows and the trigger registered every later one) becomes a document here, and every
 *    document of such a row that should be in Postgres gets its bytes there if missing —
 *    so no byte is lost when the column goes;
 * 2. the `data` columns of both tables are dropped and `document_id` becomes required: a
 *    link without its document would be a download URL answering nothing;
 * 3. the trigger (on all three attachment tables — `arap_files` was already written
 *    through the store) and its function are dropped: nobody writes bytes inline any more,
 *    and a trigger would hide a writer that did.
 *
 * The download URLs stay: the rows keep their ids, only where the bytes come from changes.
 * `arap_files.data` (null in every row since 013) belongs to modules/transactions, which
 * still reads it as a fallback; it stays.
 */
const TABLES = [
  { table: 'gl_files', nameColumn: 'name', source: 'upload', createdAt: 'f.created_at' },
  { table: 'message_attachments', nameColumn: 'filename', source: 'email', createdAt: 'now()' },
] as const;

const TRIGGER_TABLES = ['arap_files', 'gl_files', 'message_attachments'] as const;

/**
 * The migration runs as the tables' owner; FORCE applies RLS to the owner too: lifted while rows of every company move.
 */
async function withoutForcedRls(knex: Knex, tables: readonly string[], fn: () => Promise<void>): Promise<void> {
  for (const t of tables) await knex.raw(`alter table ?? no force row level security`, [t]);
  await fn();
  for (const t of tables) await knex.raw(`alter table ?? force row level security`, [t]);
}

export async function up(knex: Knex): Promise<void> {
  for (const t of TRIGGER_TABLES) await knex.raw(`drop trigger if exists register_document on ??`, [t]);
  await knex.raw('drop function if exists register_attachment_document()');

  for (const a of TABLES) {
    await withoutForcedRls(knex, [a.table, 'documents', 'document_contents'], async () => {
      await knex.raw(
        `insert into documents (company_id, sha256, name, media_type, size, source, created_at)
         select distinct on (f.company_id, encode(sha256(f.data), 'hex'))
                f.company_id, encode(sha256(f.data), 'hex'), f.??, f.media_type, length(f.data), ?, ${a.createdAt}
           from ?? f
          where f.data is not null and f.document_id is null
          order by f.company_id, encode(sha256(f.data), 'hex'), f.id
         on conflict (company_id, sha256) do nothing`,
        [a.nameColumn, a.source, a.table],
      );
      await knex.raw(
        `update ?? f set document_id = d.id
           from documents d
          where f.document_id is null and f.data is not null
            and d.company_id = f.company_id and d.sha256 = encode(sha256(f.data), 'hex')`,
        [a.table],
      );
      // bytes of Postgres-stored documents that somehow lack them: the row's copy fills the gap
      await knex.raw(
        `insert into document_contents (document_id, company_id, data)
         select distinct on (d.id) d.id, d.company_id, f.data
           from ?? f join documents d on d.id = f.document_id
          where f.data is not null and d.storage = 'postgres'
            and not exists (select 1 from document_contents c where c.document_id = d.id)
         on conflict (document_id) do nothing`,
        [a.table],
      );
      const [{ n }] = (await knex.raw(`select count(*)::int as n from ?? where document_id is null`, [a.table]))
        .rows as [{ n: number }];
      if (n > 0) throw new Error(`016_documents_once: ${n} row(s) of ${a.table} have neither bytes nor a document`);
    });
    await knex.raw(`alter table ?? drop column data`, [a.table]);
    await knex.raw(`alter table ?? alter column document_id set not null`, [a.table]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const a of TABLES) {
    await knex.raw(`alter table ?? add column data bytea`, [a.table]);
    await knex.raw(`alter table ?? alter column document_id drop not null`, [a.table]);
    await withoutForcedRls(knex, [a.table, 'document_contents'], async () => {
      await knex.raw(`update ?? f set data = c.data from document_contents c where c.document_id = f.document_id`, [
        a.table,
      ]);
      const [{ n }] = (await knex.raw(`select count(*)::int as n from ?? where data is null`, [a.table])).rows as [
        { n: number },
      ];
      // bytes in another store (DOCUMENT_STORE=directory) cannot be copied back by SQL: refuse rather than lose them
      if (n > 0) throw new Error(`016_documents_once down: ${n} file(s) of ${a.table} are not in the Postgres store`);
    });
    await knex.raw(`alter table ?? alter column data set not null`, [a.table]);
  }
  // 013's trigger again: inline bytes registered as documents (kept in both places, as before 016)
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
  await knex.raw(
    `create trigger register_document before insert on arap_files for each row execute function ` +
      `register_attachment_document('name', 'upload', 'move')`,
  );
  await knex.raw(
    `create trigger register_document before insert on gl_files for each row execute function ` +
      `register_attachment_document('name', 'upload', 'keep')`,
  );
  await knex.raw(
    `create trigger register_document before insert on message_attachments for each row execute function ` +
      `register_attachment_document('filename', 'email', 'keep')`,
  );
}
