import type { Knex } from 'knex';

/**
 * Reminders rendered when they are sent (docs/invoices.md "Dunning runs", issue 33): a dunning run
 * queues 10,000 reminders in one request, so it no longer renders their PDFs there.
 *
 * - `message_attachments` may describe a file still to be made: `render_kind` names the renderer the
 *   mail sender calls (registered at start, modules/outbox/render.ts) and `render_ref` what it renders
 *   (a dunning item's id). The sender stores the rendered file as a document and links it
 *   (`document_id`) before the message goes out, so every later attempt sends the same bytes. A row has
 *   its document, or what makes it, or both.
 * - `dunning_items` keep what the reminder prints that could change after the run: the new due date,
 *   the language it was written in (its e-mail's too) and the level's text as the settings said then.
 *   The open amount, fee and level were already there. Null in items of runs before this migration
 *   (their PDFs were rendered in the run and are stored).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('message_attachments', (t) => {
    t.text('render_kind');
    t.jsonb('render_ref');
  });
  await knex.raw('alter table message_attachments alter column document_id drop not null');
  await knex.raw(
    `alter table message_attachments add constraint message_attachments_content_check
       check (document_id is not null or (render_kind is not null and render_ref is not null))`,
  );
  await knex.schema.alterTable('dunning_items', (t) => {
    t.date('due_date');
    t.text('language');
    t.text('level_text');
  });
  await knex.raw(
    `alter table dunning_items add constraint dunning_items_language_check
       check (language is null or language in ('de', 'fr', 'it', 'en'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dunning_items', (t) => {
    t.dropChecks(['dunning_items_language_check']);
    t.dropColumns('due_date', 'language', 'level_text');
  });
  await knex.raw('alter table message_attachments drop constraint message_attachments_content_check');
  await knex.raw('delete from message_attachments where document_id is null');
  await knex.raw('alter table message_attachments alter column document_id set not null');
  await knex.schema.alterTable('message_attachments', (t) => {
    t.dropColumns('render_kind', 'render_ref');
  });
}
