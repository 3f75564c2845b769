import type { Knex } from 'knex';

/**
 * One active connection per person × company × client: connecting the same app again
 * replaces the earlier connection, whatever access either has (oauth/connections.ts). The
 * partial unique index holds the rule for every replica sharing the store; `replaced_by`
 * records which connection replaced an ended one. Connections that were active side by side
 * before this rule (the same app with other access) are ended as replaced by the newest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('connections', (t) => {
    t.string('replaced_by', 36);
  });
  const active: { id: string; user_id: unknown; dataset: string; client_id: string }[] = await knex('connections')
    .where({ state: 'active' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('id', 'user_id', 'dataset', 'client_id');
  const newest = new Map<string, string>();
  const now = Date.now();
  for (const c of active) {
    const key = JSON.stringify([String(c.user_id), c.dataset, c.client_id]);
    const kept = newest.get(key);
    if (kept === undefined) newest.set(key, c.id);
    else
      await knex('connections')
        .where({ id: c.id })
        .update({ state: 'ended', end_reason: 'replaced', ended_at: now, replaced_by: kept });
  }
  await knex.schema.alterTable('connections', (t) => {
    t.unique(['user_id', 'dataset', 'client_id'], {
      indexName: 'connections_one_active',
      predicate: knex.whereRaw("state = 'active'"),
    });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('connections', (t) => {
    // a partial unique index, not a constraint (on Postgres too), so it is dropped as an index
    t.dropIndex([], 'connections_one_active');
  });
  await knex.schema.alterTable('connections', (t) => {
    t.dropColumn('replaced_by');
  });
}
