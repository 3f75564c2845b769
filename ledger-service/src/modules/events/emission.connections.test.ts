/**
 * ai_connection.created and ai_connection.ended commit with the audit entries the gateway
 * writes through the internal API (POST /internal/companies/{dataset}/ai_connections/audit):
 * a connection that replaces others ends each of them in the same transaction. Refused calls
 * (a bad body, an unknown company), a failed write and the AI-connections switch (refused or
 * not) leave no event. Only who may manage AI connections reads these events.
 */
import t from 'tap';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { INTERNAL_CREDENTIAL } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { withTenant } from '../../db/knex.ts';

interface Event {
  id: string;
  type: string;
  subject: string;
  data: {
    actor: { via: string; id: string | null; label: string | null; user_id: number | null };
    resource: { type: string; id: number | string };
    snapshot: Record<string, unknown>;
  };
}

t.test('ai_connection events commit with their audit entries; refused calls leave none', async (t) => {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  const ledger = await startTestLedger(t, { gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const clerk = await a.addMember('clerk');
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(INTERNAL_CREDENTIAL.issuer)
    .setAudience(INTERNAL_CREDENTIAL.audience)
    .setSubject(INTERNAL_CREDENTIAL.subject)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
  const internal = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${ledger.url}/internal${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.status;
  };
  const audit = (body: Record<string, unknown>, dataset = a.dataset) =>
    internal('POST', `/companies/${dataset}/ai_connections/audit`, body);
  const events = async () => (await api('GET', '/events?limit=500&type=ai_connection.*')).body as Event[];
  const all = async () => (await api('GET', '/events?limit=500')).body as Event[];
  const entry = { user_id: a.userId, action: 'connect', client_name: 'Claude' };

  // the switch writes no ai_connection event, on or refused
  t.equal(
    await internal('PUT', `/companies/${a.dataset}/ai_connections`, { enabled: true, user_id: clerk.userId }),
    403,
    'a clerk may not switch',
  );
  t.equal(await internal('PUT', `/companies/${a.dataset}/ai_connections`, { enabled: true, user_id: a.userId }), 200);
  t.same(await all(), [], 'neither the refused nor the applied switch is an event');

  // refused audit calls
  t.equal(await audit({ ...entry, connection_id: 'c1', action: 'open' }), 400, 'unknown action');
  t.equal(
    await audit({ ...entry, connection_id: 'c1', replaced: Array.from({ length: 101 }, (_, i) => `x${i}`) }),
    400,
    'too many replaced',
  );
  t.equal(await audit({ ...entry, connection_id: 'c1' }, 'nope-unknown'), 404, 'unknown company');
  t.same(await all(), [], 'the refused calls leave no event');

  // a connection
  t.equal(await audit({ ...entry, connection_id: 'c1', scopes: 'accounting:read bank:read' }), 204);
  const [created] = await events();
  t.match(created, {
    type: 'ai_connection.created',
    subject: '/system/audit',
    data: {
      actor: { via: 'ai_connection', id: 'c1', label: 'Claude', user_id: a.userId },
      resource: { type: 'ai_connection', id: 'c1' },
    },
  });
  t.same(created!.data.snapshot, { client_name: 'Claude', scopes: 'accounting:read bank:read' });

  // a failed write: the new connection's event and the end of the one it replaces go back together
  const trigger = `refuse_connection_${a.company.id}`;
  await ledger.db.raw(`create function ${trigger}() returns trigger language plpgsql as $$
    begin raise exception 'event refused by the test'; end $$`);
  await ledger.db.raw(`create trigger ${trigger} before insert on events for each row
    when (new.company_id = ${a.company.id} and new.type = 'ai_connection.created') execute function ${trigger}()`);
  const failed = await audit({ ...entry, connection_id: 'c2', scopes: 'accounting:read', replaced: ['c1'] });
  await ledger.db.raw(`drop trigger ${trigger} on events; drop function ${trigger}()`);
  t.equal(failed, 500, 'the failed write fails the call');
  t.equal((await events()).length, 1, 'no ended event for c1 without the created event of c2');
  const auditRows = () =>
    withTenant(ledger.db, a.company.id, (tx) =>
      tx('audit_log').where({ company_id: a.company.id, entity: 'ai_connection' }).orderBy('id').select('details'),
    );
  t.equal((await auditRows()).length, 1, 'nor their audit entries');

  // the same again: c1 ends (replaced) and c2 starts, in one transaction; then c2 ends
  t.equal(await audit({ ...entry, connection_id: 'c2', scopes: 'accounting:read', replaced: ['c1'] }), 204);
  t.equal(await audit({ ...entry, action: 'end', connection_id: 'c2', reason: 'revoked' }), 204);
  const list = await events();
  t.same(
    list.map((e) => [e.type, e.data.resource.id, e.data.snapshot]),
    [
      ['ai_connection.created', 'c1', { client_name: 'Claude', scopes: 'accounting:read bank:read' }],
      ['ai_connection.ended', 'c1', { client_name: 'Claude', reason: 'replaced' }],
      ['ai_connection.created', 'c2', { client_name: 'Claude', scopes: 'accounting:read' }],
      ['ai_connection.ended', 'c2', { client_name: 'Claude', reason: 'revoked' }],
    ],
    'each event with its snapshot, the replaced one ended before its successor starts',
  );
  t.same(
    (await auditRows()).map((r) => (r.details as { connection_id: string }).connection_id),
    ['c1', 'c2', 'c1', 'c2'],
    'one audit entry per event',
  );
  t.same(
    list.map((e) => Number(e.id)),
    [1, 2, 3, 4],
    'numbered without gaps despite the refused and failed calls',
  );

  // who reads them: the management permission; a clerk's key sees none and gets 404 for one
  const asClerk = apiClient(ledger.url, a.dataset, clerk.apiKey);
  t.same((await asClerk('GET', '/events?limit=500')).body, [], 'a clerk sees no AI-connection events');
  t.equal((await asClerk('GET', `/events/${list[0]!.id}`)).status, 404);
});
