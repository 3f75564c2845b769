import t from 'tap';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { TOTP, Secret } from 'otpauth';
import { INTERNAL_CREDENTIAL, SERVICE_CREDENTIAL } from '@ledger/shared';
import { createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { withTenant } from '../../db/knex.ts';

async function keyPair() {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  return { privateKey, publicJwk: JSON.stringify(await exportJWK(publicKey)) };
}

function sign(key: CryptoKey, opts: { aud?: string; sub?: string; iss?: string; exp?: string | number } = {}) {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(opts.iss ?? INTERNAL_CREDENTIAL.issuer)
    .setAudience(opts.aud ?? INTERNAL_CREDENTIAL.audience)
    .setSubject(opts.sub ?? INTERNAL_CREDENTIAL.subject)
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '30s')
    .sign(key);
}

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();

t.test('internal API', async (t) => {
  const gateway = await keyPair();
  const other = await keyPair();
  const ledger = await startTestLedger(t, { gatewayPublicJwk: gateway.publicJwk });
  const a = await createTestCompany(ledger);
  const clerk = await a.addMember('clerk');
  const good = await sign(gateway.privateKey);

  const call = async (
    method: string,
    path: string,
    token: string | undefined,
    body?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const headers: Record<string, string> = { ...extra };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${ledger.url}/internal${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  t.test('refuses everything but the gateway credential', async (t) => {
    const path = `/companies/${a.dataset}`;
    t.equal((await call('GET', path, undefined)).status, 401, 'no credential');
    t.equal((await call('GET', path, undefined, undefined, { 'X-API-Key': a.apiKey })).status, 401, 'API key');
    t.equal((await call('GET', path, await sign(other.privateKey))).status, 401, 'forged (other key)');
    t.equal(
      (await call('GET', path, await sign(gateway.privateKey, { exp: Math.floor(Date.now() / 1000) - 10 }))).status,
      401,
      'expired',
    );
    t.equal(
      (await call('GET', path, await sign(gateway.privateKey, { aud: SERVICE_CREDENTIAL.audience }))).status,
      401,
      'service-credential audience',
    );
    t.equal((await call('GET', path, await sign(gateway.privateKey, { sub: '1' }))).status, 401, 'wrong subject');
    t.equal((await call('GET', path, await sign(gateway.privateKey, { iss: 'someone' }))).status, 401, 'wrong issuer');
    t.equal((await call('GET', '/no-such-route', undefined)).status, 401, 'unknown routes are not revealed');
    const ok = await call('GET', path, good);
    t.equal(ok.status, 200);
    t.same(ok.body, { company: { dataset: a.dataset, name: a.company.name, ai_connections_enabled: false } });
    t.equal((await call('GET', '/companies/nope-unknown', good)).status, 404);
  });

  t.test('verifies email, password and TOTP together', async (t) => {
    const ok = await call('POST', '/auth/verify', good, {
      email: a.email,
      password: a.password,
      totp: code(a.totpSecret),
    });
    t.equal(ok.status, 200);
    t.same(ok.body, { valid: true, user: { id: a.userId, name: 'owner user', email: a.email } });
    const wrongPw = await call('POST', '/auth/verify', good, {
      email: a.email,
      password: 'nope',
      totp: code(a.totpSecret),
    });
    const wrongCode = await call('POST', '/auth/verify', good, {
      email: a.email,
      password: a.password,
      totp: '000000' === code(a.totpSecret) ? '111111' : '000000',
    });
    const unknown = await call('POST', '/auth/verify', good, {
      email: 'x@nowhere.test',
      password: 'x',
      totp: '123456',
    });
    t.same(wrongPw.body, { valid: false });
    t.same(wrongCode.body, { valid: false }, 'same answer whichever factor failed');
    t.same(unknown.body, { valid: false });
    const bad = await call('POST', '/auth/verify', good, { email: a.email });
    t.equal(bad.status, 400);
  });

  t.test('a TOTP code signs in once (RFC 6238 §5.2), even when sent twice at once', async (t) => {
    const person = await a.addMember('viewer');
    const at = (offsetSteps: number) =>
      new TOTP({ secret: Secret.fromBase32(person.totpSecret) }).generate({
        timestamp: Date.now() + offsetSteps * 30_000,
      });
    const verify = (totp: string) =>
      call('POST', '/auth/verify', good, { email: person.email, password: person.password, totp });
    const now = at(0);
    t.equal((await verify(now)).body.valid, true, 'first use accepted');
    // with the right password, a code already used (or one older than it) is told apart from a wrong one
    const usedAnswer = (body: { next_code_in_seconds?: number }) => ({
      valid: false,
      reason: 'code_used',
      next_code_in_seconds: body.next_code_in_seconds,
    });
    const again = (await verify(now)).body;
    t.same(again, usedAnswer(again), 'the same code again is refused as used');
    t.ok(again.next_code_in_seconds >= 1 && again.next_code_in_seconds <= 30, 'with when the next code comes');
    const earlier = (await verify(at(-1))).body;
    t.same(earlier, usedAnswer(earlier), 'an earlier step is refused too');
    const wrongPassword = await call('POST', '/auth/verify', good, {
      email: person.email,
      password: 'nope',
      totp: at(1),
    });
    t.same(wrongPassword.body, { valid: false });
    const later = await Promise.all([verify(at(1)), verify(at(1))]);
    t.same(
      later.map((r) => r.body.valid).sort(),
      [false, true],
      'a later step is accepted, once, also under concurrency (and a wrong password did not use it up)',
    );
  });

  t.test('membership, memberships and the AI switch', async (t) => {
    const m = await call('GET', `/companies/${a.dataset}/members/${a.userId}`, good);
    t.same(m.body, {
      company: { dataset: a.dataset, name: a.company.name, ai_connections_enabled: false },
      user_exists: true,
      user_active: true,
      role: 'owner',
      may_connect_assistants: true,
    });
    const c = await call('GET', `/companies/${a.dataset}/members/${clerk.userId}`, good);
    t.equal(c.body.role, 'clerk');
    t.equal(c.body.may_connect_assistants, false);
    const none = await call('GET', `/companies/${a.dataset}/members/999999999`, good);
    t.same([none.body.user_exists, none.body.role], [false, null]);
    t.equal((await call('GET', `/companies/${a.dataset}/members/abc`, good)).status, 400);

    const list = await call('GET', `/users/${a.userId}/memberships`, good);
    t.same(list.body.memberships, [
      {
        dataset: a.dataset,
        name: a.company.name,
        ai_connections_enabled: false,
        role: 'owner',
        may_connect_assistants: true,
      },
    ]);

    const denied = await call('PUT', `/companies/${a.dataset}/ai_connections`, good, {
      enabled: true,
      user_id: clerk.userId,
    });
    t.equal(denied.status, 403, 'a clerk may not switch');
    t.equal(
      (await call('PUT', `/companies/${a.dataset}/ai_connections`, good, { enabled: 'yes', user_id: a.userId })).status,
      400,
    );
    const on = await call('PUT', `/companies/${a.dataset}/ai_connections`, good, { enabled: true, user_id: a.userId });
    t.equal(on.status, 200);
    t.equal(on.body.company.ai_connections_enabled, true);
    const again = await call('GET', `/companies/${a.dataset}`, good);
    t.equal(again.body.company.ai_connections_enabled, true);
    const audit = await ledger.db.transaction(async (tx) => {
      await tx.raw(`select set_config('app.company_id', ?, true)`, [String(a.company.id)]);
      return tx('audit_log').where({ company_id: a.company.id, entity: 'company' }).select('action', 'via', 'user_id');
    });
    t.same(audit, [{ action: 'ai_connections_on', via: 'web', user_id: a.userId }], 'audited');

    const auditRows = (entity: string): Promise<{ action: string; details: Record<string, string> }[]> =>
      withTenant(ledger.db, a.company.id, (tx) =>
        tx('audit_log').where({ company_id: a.company.id, entity }).orderBy('id').select('action', 'details'),
      );
    const same = await call('PUT', `/companies/${a.dataset}/ai_connections`, good, {
      enabled: true,
      user_id: a.userId,
    });
    t.equal(same.status, 200);
    t.equal((await auditRows('company')).length, 1, 'switching to the state it is in writes no entry');

    // the switch and its audit entry are one transaction: when the entry cannot be written, the switch stays
    await ledger.db.raw(`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused by the test'; end $$`);
    await ledger.db.raw(`create trigger refuse_audit before insert on audit_log for each row
      when (new.action = 'ai_connections_off') execute function refuse_audit()`);
    const failed = await call('PUT', `/companies/${a.dataset}/ai_connections`, good, {
      enabled: false,
      user_id: a.userId,
    });
    await ledger.db.raw('drop trigger refuse_audit on audit_log; drop function refuse_audit()');
    t.equal(failed.status, 500, 'the failed audit write fails the request');
    t.equal(
      (await call('GET', `/companies/${a.dataset}`, good)).body.company.ai_connections_enabled,
      true,
      'the switch did not change without its audit entry',
    );
    t.equal((await auditRows('company')).length, 1, 'and no entry either');
    const off = await call('PUT', `/companies/${a.dataset}/ai_connections`, good, {
      enabled: false,
      user_id: a.userId,
    });
    t.equal(off.body.company.ai_connections_enabled, false);
    t.same(
      (await auditRows('company')).map((r) => r.action),
      ['ai_connections_on', 'ai_connections_off'],
    );

    await ledger.db('users').where({ id: a.userId }).update({ active: false });
    const inactive = await call('GET', `/companies/${a.dataset}/members/${a.userId}`, good);
    t.same([inactive.body.user_active, inactive.body.may_connect_assistants], [false, false]);
    t.same(
      (await call('GET', `/users/${a.userId}/memberships`, good)).body.memberships,
      [],
      'a deactivated person has no companies',
    );
  });
  t.test('validated by their contracts: path ids, bodies, queries', async (t) => {
    t.equal((await call('GET', '/users/abc/memberships', good)).status, 400, 'a non-numeric user id');
    t.equal((await call('GET', `/users/0`, good)).status, 400, 'zero is no id');
    const unknownField = await call('POST', '/auth/verify', good, {
      email: a.email,
      password: a.password,
      totp: '123456',
      extra: 1,
    });
    t.equal(unknownField.status, 400);
    t.equal(unknownField.body.error.field, '/extra', 'the field is named');
    const tooLong = await call(
      'GET',
      `/companies/${a.dataset}/members/${a.userId}/endpoints?scope=${'x'.repeat(2001)}`,
      good,
    );
    t.equal(tooLong.status, 400, 'a scope list longer than any real one');
    const admin = await a.addMember('admin'); // the owner was deactivated above
    const endpoints = await call(
      'GET',
      `/companies/${a.dataset}/members/${admin.userId}/endpoints?scope=contacts:read`,
      good,
    );
    t.equal(endpoints.status, 200);
    t.equal(endpoints.body.role, 'admin');
    t.ok(endpoints.body.endpoints.includes('GET /arap/vendor'), 'contacts:read opens the vendor list');
    t.notOk(endpoints.body.endpoints.includes('POST /arap/vendor'), 'but not its writes');
    t.equal(
      (await call('PUT', `/companies/nope-unknown/ai_connections`, good, { enabled: true, user_id: 1 })).status,
      404,
    );
  });

  t.test("a connection's audit entries: one transaction with the ones it replaced", async (t) => {
    const path = `/companies/${a.dataset}/ai_connections/audit`;
    const entry = { user_id: a.userId, action: 'connect', connection_id: 'c-new', client_name: 'Claude' };
    t.equal((await call('POST', path, good, { ...entry, action: 'open' })).status, 400, 'unknown action');
    t.equal(
      (await call('POST', path, good, { ...entry, replaced: Array.from({ length: 101 }, (_, i) => `c${i}`) })).status,
      400,
      'at most 100 replaced connections',
    );
    t.equal((await call('POST', path, good, { ...entry, replaced: [''] })).status, 400, 'an empty id');
    const res = await fetch(`${ledger.url}/internal${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${good}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...entry, scopes: 'contacts:read', replaced: ['c-old'] }),
    });
    t.equal(res.status, 204);
    const rows: { action: string; details: Record<string, string> }[] = await withTenant(
      ledger.db,
      a.company.id,
      (tx) =>
        tx('audit_log')
          .where({ company_id: a.company.id, entity: 'ai_connection' })
          .orderBy('id')
          .select('action', 'details'),
    );
    t.same(
      rows.map((r) => [r.action, r.details.connection_id, r.details.reason ?? null]),
      [
        ['connect', 'c-new', null],
        ['end', 'c-old', 'replaced'],
      ],
    );
  });
});
