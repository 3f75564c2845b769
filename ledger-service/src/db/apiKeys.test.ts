/**
 * `api_keys` is a reference table shared by all companies, like `users` (db/tenancy.ts,
 * docs/operations.md "Past one Postgres"): a key is looked up by its hash before its company
 * is known, so its primary key is its own id and its hash is unique across every company;
 * the catalog check keeps it apart from the books on purpose. What keeps companies apart
 * there is the company filter of every query that lists or deletes keys.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { apiClient, createTestCompany, startTestLedger } from '../../test/helpers.ts';
import { REFERENCE_TABLES, shardingViolations } from './tenancy.ts';

t.test(
  'api_keys is declared a reference table; as a books table its keys would break the sharding rules',
  async (t) => {
    const ledger = await startTestLedger(t);
    t.ok(REFERENCE_TABLES.includes('api_keys'), 'declared in REFERENCE_TABLES');
    const about = (lines: string[]) => lines.filter((line) => /\bapi_keys\b/.test(line));
    t.same(about(await shardingViolations(ledger.db)), [], 'declared so, the catalog check finds nothing on it');
    const asBooks = about(
      await shardingViolations(
        ledger.db,
        REFERENCE_TABLES.filter((x) => x !== 'api_keys'),
      ),
    );
    t.match(
      asBooks.join('\n'),
      /primary key api_keys_pkey on api_keys \(id\) does not include company_id/,
      'as a books table: its primary key is its id alone',
    );
    t.match(asBooks.join('\n'), /api_keys \(key_hash\) does not include company_id/, 'and its hash is unique alone');
  },
);

t.test('one key hash names one key across all companies', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const hash = randomBytes(32).toString('hex');
  await ledger.db('api_keys').insert({
    company_id: a.company.id,
    user_id: a.userId,
    label: 'a',
    key_hash: hash,
    key_prefix: 'ak_test',
  });
  await t.rejects(
    ledger.db('api_keys').insert({
      company_id: b.company.id,
      user_id: b.userId,
      label: 'b',
      key_hash: hash,
      key_prefix: 'ak_test',
    }),
    { code: '23505' },
    "the same hash in another company's row is refused: authentication finds one company for a key",
  );
});

t.test("a company lists and deletes only its own keys: another company's key id is not found", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const apiA = apiClient(ledger.url, a.dataset, a.apiKey);
  const apiB = apiClient(ledger.url, b.dataset, b.apiKey);

  const listed = await apiB('GET', '/system/api_keys?limit=100');
  t.equal(listed.status, 200);
  const ids = (listed.body as { id: number }[]).map((k) => k.id);
  t.ok(ids.includes(b.apiKeyId), "B's list holds B's key");
  t.notOk(ids.includes(a.apiKeyId), "and not A's");

  const deleted = await apiB('DELETE', `/system/api_keys/${a.apiKeyId}`);
  t.equal(deleted.status, 404, JSON.stringify(deleted.body));
  t.equal(deleted.body.error.code, 'not_found');
  t.equal((await apiA('GET', '/system/api_keys')).status, 200, "A's key still works");
  t.ok(await ledger.db('api_keys').where({ id: a.apiKeyId }).first(), "A's key row is still there");
});
