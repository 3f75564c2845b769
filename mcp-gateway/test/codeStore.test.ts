/**
 * The authorization code store: a code is claimed by exactly one consume(), on the gateway's
 * SQLite file and on Postgres (where two pool connections really run the two claims at once).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import t from 'tap';
import { recreateDatabase } from '../../scripts/database.ts';
import { TEST_DATABASE_URL } from '../../ledger-service/test/helpers.ts';
import { migrateLatest, openDb } from '../src/db/knex.ts';
import { hashSecret } from '../src/oauth/secrets.ts';
import { CodeStore, type CodeGrant } from '../src/oauth/token/codeStore.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function sqliteDb(t: Teardown): Promise<Knex> {
  const db = openDb(join(mkdtempSync(join(tmpdir(), 'gateway-codes-')), 'gateway.sqlite'));
  t.teardown(() => db.destroy());
  await migrateLatest(db);
  return db;
}

async function postgresDb(t: Teardown): Promise<Knex> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/gateway_codes_${randomBytes(4).toString('hex')}`;
  await recreateDatabase(url.toString());
  const db = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 4 } });
  t.teardown(async () => {
    await db.destroy();
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`drop database if exists "${url.pathname.slice(1)}" with (force)`);
    await client.end();
  });
  await migrateLatest(db);
  return db;
}

const GRANT: CodeGrant = {
  clientId: 'https://app.example/client.json',
  clientName: 'Test Assistant',
  verifiedHost: 'app.example',
  userId: 7,
  userName: 'Ada',
  userEmail: 'ada@example.com',
  dataset: 'acme',
  resource: 'http://127.0.0.1:3000/mcp/acme',
  scopes: ['accounting:read', 'contacts:write'],
  redirectUri: 'https://app.example/cb',
  redirectUriSent: true,
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGvSDa-cM',
};

/** A connection of the grant, replacing the one an earlier case made (one active per person, company and app). */
async function insertConnection(db: Knex, id: string, now: number): Promise<void> {
  await db('connections')
    .where({ user_id: GRANT.userId, dataset: GRANT.dataset, client_id: GRANT.clientId, state: 'active' })
    .update({ state: 'ended', end_reason: 'replaced', ended_at: now, replaced_by: id });
  await db('connections').insert({
    id,
    user_id: GRANT.userId,
    user_name: GRANT.userName,
    user_email: GRANT.userEmail,
    dataset: GRANT.dataset,
    resource: GRANT.resource,
    client_id: GRANT.clientId,
    client_name: GRANT.clientName,
    scopes: GRANT.scopes.join(' '),
    state: 'active',
    created_at: now,
    last_used_at: now,
  });
}

for (const [name, open] of [
  ['SQLite', sqliteDb],
  ['Postgres', postgresDb],
] as const) {
  t.test(`authorization codes on ${name}`, async (t) => {
    const db = await open(t);
    const codes = new CodeStore(db);
    const now = 1_700_000_000_000;

    t.test('issue, then consume returns what was granted', async (t) => {
      const code = await codes.issue(GRANT, now);
      t.match(code, /^mcpac_[A-Za-z0-9_-]{43}$/);
      t.equal(await db('authorization_codes').where({ code_hash: code }).first(), undefined, 'stored only as a hash');
      const result = await codes.consume(hashSecret(code), now + 1);
      t.same(result, { kind: 'claimed', code: { ...GRANT, expiresAt: now + 60_000 } });
      const row = await db('authorization_codes')
        .where({ code_hash: hashSecret(code) })
        .first();
      t.equal(Number(row?.used_at), now + 1, 'the claim records when');
    });

    t.test('an unknown code', async (t) => {
      t.same(await codes.consume(hashSecret('mcpac_never-issued'), now), { kind: 'unknown' });
    });

    t.test('two concurrent consumes of one code: exactly one wins', async (t) => {
      for (let round = 0; round < 20; round++) {
        const hash = hashSecret(await codes.issue(GRANT, now));
        const results = await Promise.all([codes.consume(hash, now + 1), codes.consume(hash, now + 2)]);
        t.same(results.map((r) => r.kind).sort(), ['claimed', 'replayed'], `round ${round}`);
      }
    });

    t.test('a replay after the exchange names the connection to end', async (t) => {
      const hash = hashSecret(await codes.issue(GRANT, now));
      t.equal((await codes.consume(hash, now)).kind, 'claimed');
      const connectionId = `00000000-0000-0000-0000-${randomBytes(6).toString('hex')}`;
      await insertConnection(db, connectionId, now);
      t.same(await db.transaction((trx) => codes.attachConnection(trx, hash, connectionId)), { replayed: false });
      t.same(await codes.consume(hash, now + 5), { kind: 'replayed', clientId: GRANT.clientId, connectionId });
      t.same(
        await codes.consume(hash, now + 6),
        { kind: 'replayed', clientId: GRANT.clientId, connectionId },
        'and every later one',
      );
    });

    t.test('a replay during the exchange is seen when the connection is attached', async (t) => {
      const hash = hashSecret(await codes.issue(GRANT, now));
      t.equal((await codes.consume(hash, now)).kind, 'claimed');
      t.same(await codes.consume(hash, now + 1), { kind: 'replayed', clientId: GRANT.clientId, connectionId: null });
      const connectionId = `00000000-0000-0000-0000-${randomBytes(6).toString('hex')}`;
      await insertConnection(db, connectionId, now);
      t.same(await db.transaction((trx) => codes.attachConnection(trx, hash, connectionId)), { replayed: true });
    });
  });
}
