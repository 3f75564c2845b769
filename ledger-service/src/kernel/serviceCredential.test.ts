/**
 * The gateway's service credential at the ledger (docs/oauth.md "Gateway ↔ ledger"): only a credential signed
 * with the gateway's key, for the ledger audience, unexpired, for this dataset, is accepted;
 * the person's role and the granted scopes both apply; changes are audited as the AI connection.
 * On every request the connection's preconditions are checked (owner/admin, active account,
 * AI connections on): otherwise 403 `connection_not_allowed` with a `reason`.
 */
import t from 'tap';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import {
  ALL_SCOPES,
  CONTRACTS,
  endpointKey,
  forSide,
  INTERNAL_CREDENTIAL,
  SERVICE_CREDENTIAL,
  sidesOf,
} from '@ledger/shared';
import { permittedEndpoints } from './endpointAccess.ts';
import { authorize } from '../domain/access.ts';
import { ROLES } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../test/helpers.ts';

async function keyPair() {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  return { privateKey, publicJwk: JSON.stringify(await exportJWK(publicKey)) };
}

interface CredentialOptions {
  sub: number;
  dataset: string;
  scope?: string;
  aud?: string;
  iss?: string;
  /** seconds from now; negative = already expired */
  expiresIn?: number;
  issuedAgo?: number;
}

function credential(key: CryptoKey, o: CredentialOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    dataset: o.dataset,
    conn: 'conn-test-1',
    scope: o.scope ?? ALL_SCOPES.join(' '),
    client_name: 'Test Assistant',
  })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(o.iss ?? SERVICE_CREDENTIAL.issuer)
    .setAudience(o.aud ?? SERVICE_CREDENTIAL.audience)
    .setSubject(String(o.sub))
    .setIssuedAt(now - (o.issuedAgo ?? 0))
    .setExpirationTime(now + (o.expiresIn ?? 30))
    .sign(key);
}

t.test('service credential at the ledger', async (t) => {
  const gateway = await keyPair();
  const intruder = await keyPair();
  const ledger = await startTestLedger(t, { gatewayPublicJwk: gateway.publicJwk });
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const clerk = await a.addMember('clerk');
  const aiConnections = (dataset: string, on: boolean) =>
    ledger.db('companies').where({ dataset }).update({ ai_connections_enabled: on });
  await aiConnections(a.dataset, true);
  await aiConnections(b.dataset, true);
  const as =
    (token: string, dataset = a.dataset) =>
    (method: string, path: string, body?: unknown) =>
      apiClient(ledger.url, dataset, undefined)(method, path, body, { Authorization: `Bearer ${token}` });

  t.test('a valid credential acts as the person, audited as the AI connection', async (t) => {
    const token = await credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset });
    const created = await as(token)('POST', '/arap/vendor', { name: 'Credential Vendor AG' });
    t.equal(created.status, 201, JSON.stringify(created.body));
    const audit = await apiClient(ledger.url, a.dataset, a.apiKey)('GET', `/system/audit?entity_id=${created.body.id}`);
    t.equal(audit.status, 200);
    const entry = audit.body.find((e: { entity: string }) => e.entity === 'vendor');
    t.ok(entry, 'the creation is in the audit log');
    t.equal(entry.via, 'ai_connection');
    t.equal(entry.via_label, 'Test Assistant');
    t.equal(entry.via_text, 'via AI connection (Test Assistant)');
    t.equal(entry.user_id, a.userId, 'against the connected person');
  });

  t.test('forged, expired, wrong-audience or wrong-issuer credentials get 401', async (t) => {
    const cases: [string, Promise<string>][] = [
      ['signed with another key', credential(intruder.privateKey, { sub: a.userId, dataset: a.dataset })],
      ['expired', credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset, expiresIn: -5, issuedAgo: 40 })],
      [
        'issued too long ago',
        credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset, expiresIn: 600, issuedAgo: 120 }),
      ],
      ['wrong audience', credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset, aud: 'someone-else' })],
      [
        'internal audience',
        credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset, aud: INTERNAL_CREDENTIAL.audience }),
      ],
      ['wrong issuer', credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset, iss: 'not-the-gateway' })],
    ];
    for (const [label, pending] of cases) {
      const res = await as(await pending)('GET', '/arap/vendor');
      t.equal(res.status, 401, label);
      t.equal(res.body.error.code, 'unauthorized', label);
    }
    const valid = await credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset });
    const [header, payload] = valid.split('.');
    const tampered = `${header}.${payload}.${'A'.repeat(86)}`;
    t.equal((await as(tampered)('GET', '/arap/vendor')).status, 401, 'tampered signature');
    t.equal((await as('not-a-jwt')('GET', '/arap/vendor')).status, 401, 'garbage');
  });

  t.test('a credential for dataset A is useless at dataset B', async (t) => {
    const token = await credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset });
    const res = await as(token, b.dataset)('GET', '/arap/vendor');
    t.equal(res.status, 403);
    const forB = await credential(gateway.privateKey, { sub: a.userId, dataset: b.dataset });
    t.equal((await as(forB, b.dataset)('GET', '/arap/vendor')).status, 403, "and A's person is no member of B");
  });

  t.test('scopes ∩ role: the role alone is not enough (the role side for every role: below)', async (t) => {
    const readOnly = await credential(gateway.privateKey, {
      sub: a.userId,
      dataset: a.dataset,
      scope: 'contacts:read',
    });
    const write = await as(readOnly)('POST', '/arap/vendor', { name: 'Not allowed' });
    t.equal(write.status, 403, 'owner without contacts:write');
    t.match(write.body.error.message, /contacts:write/);
    t.equal((await as(readOnly)('GET', '/arap/vendor')).status, 200, 'reading is granted');
    t.equal((await as(readOnly)('GET', '/system/taxes')).status, 403, 'another area is not');
    t.equal((await as(readOnly)('GET', '/system/api_keys')).status, 403, 'never through an AI connection');
  });

  t.test(
    'the connection preconditions are checked on every request: 403 connection_not_allowed with the reason',
    async (t) => {
      const refused = async (token: string, reason: string, label: string) => {
        const res = await as(token)('GET', '/arap/vendor');
        t.equal(res.status, 403, label);
        t.equal(res.body.error.code, 'connection_not_allowed', label);
        t.equal(res.body.error.reason, reason, label);
        t.notOk(res.headers.get('x-connection-checked'), `${label}: not marked as checked`);
      };
      const allowed = async (token: string, label: string) => {
        const res = await as(token)('GET', '/arap/vendor');
        t.equal(res.status, 200, label);
      };

      // a clerk (or any role but owner/admin) can never act through an AI connection; the
      // role ∩ scope rule itself is covered for every role by the next test
      await refused(
        await credential(gateway.privateKey, { sub: clerk.userId, dataset: a.dataset }),
        'role_lost',
        'clerk',
      );
      const approveAsClerk = await as(await credential(gateway.privateKey, { sub: clerk.userId, dataset: a.dataset }))(
        'POST',
        '/arap/vendor',
        { name: 'Clerk Vendor' },
      );
      t.equal(approveAsClerk.status, 403, 'nothing is written for a clerk');
      t.equal(approveAsClerk.body.error.code, 'connection_not_allowed');

      const admin = await a.addMember('admin');
      const token = await credential(gateway.privateKey, { sub: admin.userId, dataset: a.dataset });
      await allowed(token, 'an active admin with AI connections on');
      const membership = () => ledger.db('memberships').where({ company_id: a.company.id, user_id: admin.userId });

      await membership().update({ role: 'accountant' });
      await refused(token, 'role_lost', 'demoted to accountant: the same (already verified) credential is refused');
      await membership().update({ role: 'admin' });
      await allowed(token, "admin again (ending the connection for good is the gateway's part)");

      await ledger.db('users').where({ id: admin.userId }).update({ active: false });
      await refused(token, 'user_deactivated', 'account deactivated');
      await ledger.db('users').where({ id: admin.userId }).update({ active: true });

      await aiConnections(a.dataset, false);
      await refused(token, 'ai_connections_off', 'AI connections switched off');
      await aiConnections(a.dataset, true);

      const row = await membership().first();
      await membership().delete();
      await refused(token, 'membership_lost', 'no longer a member');
      await ledger.db('memberships').insert(row!);
      await allowed(token, 'member again');

      const ok = await as(token)('GET', '/arap/vendor/999999');
      t.equal(ok.status, 404, 'a refusal by the route after the checks');
      t.equal(ok.headers.get('x-connection-checked'), 'allowed', 'still says the connection was checked');
    },
  );

  t.test('verified credentials are remembered by their exact string only', async (t) => {
    const token = await credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset });
    t.equal((await as(token)('GET', '/arap/vendor')).status, 200);
    t.equal((await as(token)('GET', '/arap/vendor')).status, 200, 'again, from the cache');
    const [header, payload, signature] = token.split('.');
    const flipped =
      `${header}.${payload}.${signature!.slice(0, 20)}${signature![20] === 'A' ? 'B' : 'A'}` +
      `${signature!.slice(21)}`;
    t.equal(
      (await as(flipped)('GET', '/arap/vendor')).status,
      401,
      'a token differing in the signature is verified afresh and refused',
    );
    const other = await credential(gateway.privateKey, { sub: a.userId, dataset: a.dataset, scope: 'contacts:read' });
    t.equal(
      (await as(other)('POST', '/arap/vendor', { name: 'x' })).status,
      403,
      'another credential carries its own scopes',
    );
  });

  t.test('permittedEndpoints agrees with authorize() for every role, scope and endpoint', async (t) => {
    const scopeSets: (readonly string[] | undefined)[] = [
      undefined,
      [],
      ['contacts:read'],
      ['invoices:write', 'accounting:read'],
      ALL_SCOPES,
    ];
    let checked = 0;
    for (const role of ROLES) {
      for (const scopes of scopeSets) {
        const permitted = new Set(permittedEndpoints(role, scopes));
        for (const contract of CONTRACTS) {
          for (const vc of sidesOf(contract)) {
            const permission = contract.permission ? forSide(contract.permission, vc) : null;
            const { scope } = contract;
            const via = scopes
              ? { kind: 'ai_connection' as const, id: 'c', label: 'x', scopes: [...scopes] }
              : { kind: 'api_key' as const, id: 1, label: 'k' };
            let allowed = true;
            try {
              authorize({ userId: 1, role, approvalLimit: null, via }, permission, scope);
            } catch {
              allowed = false;
            }
            const resolved = endpointKey(contract, vc);
            if (permitted.has(resolved) !== allowed) t.fail(`${role} ${scopes?.join(' ') ?? '(key)'} ${resolved}`);
            checked++;
          }
        }
      }
    }
    t.ok(checked > 100, `${checked} combinations agree`);
    t.notOk(
      permittedEndpoints('clerk', ALL_SCOPES).includes('POST /arap/transaction/vendor/:id/approve'),
      'a clerk may not approve bills',
    );
    t.ok(permittedEndpoints('clerk', ALL_SCOPES).includes('POST /arap/transaction/vendor'), 'but may record them');
  });
});
