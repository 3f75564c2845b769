import t from 'tap';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { SERVICE_CREDENTIAL } from '@ledger/shared';
import { CONTRACTS, forSide, ROLES, roleHas, type Contract } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../test/helpers.ts';

/** A contract ("POST /arap/:vc/:id") → concrete requests, one per side for `:vc` paths. */
function concrete({ method, path: pattern }: Contract): { method: string; path: string; vc?: 'vendor' | 'customer' }[] {
  const sides = pattern.includes(':vc') ? (['vendor', 'customer'] as const) : [undefined];
  return sides.map((vc) => ({
    method,
    vc,
    path: pattern.replace(':vc', vc ?? '').replace(/:[A-Za-z]+/g, '999999'),
  }));
}

const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

t.test('a key for dataset A gets 403 at dataset B, for every endpoint contract', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const keyAatB = apiClient(ledger.url, b.dataset, a.apiKey);
  t.ok(CONTRACTS.length >= 20, 'the contract list is not empty');
  for (const contract of CONTRACTS) {
    for (const { method, path } of concrete(contract)) {
      const res = await keyAatB(method, path, bodyFor(method));
      t.equal(res.status, 403, `${method} ${path} at another dataset: 403`);
      t.equal(res.body?.error?.code, 'forbidden');
      t.match(res.body?.error?.message, b.dataset);
    }
  }
  const ghost = await apiClient(ledger.url, 'no-such-dataset', a.apiKey)('GET', '/arap/vendor');
  t.equal(ghost.status, 403, 'an unknown dataset looks the same as a foreign one');
  t.equal((await ledger.db('parties').where({ company_id: b.company.id })).length, 0, 'nothing was written at B');
});

t.test('a service credential for dataset A gets 403 at dataset B, for every endpoint', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair(SERVICE_CREDENTIAL.algorithm, { extractable: true });
  const ledger = await startTestLedger(t, { gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  await ledger.db('companies').whereIn('id', [a.company.id, b.company.id]).update({ ai_connections_enabled: true });
  const token = await new SignJWT({
    dataset: a.dataset,
    conn: 'c1',
    scope: 'contacts:write invoices:write accounting:read',
    client_name: 'Test AI',
  })
    .setProtectedHeader({ alg: SERVICE_CREDENTIAL.algorithm })
    .setSubject(String(a.userId))
    .setIssuer(SERVICE_CREDENTIAL.issuer)
    .setAudience(SERVICE_CREDENTIAL.audience)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(privateKey);
  const bearer = { Authorization: `Bearer ${token}` };
  const atA = apiClient(ledger.url, a.dataset, undefined);
  t.equal((await atA('GET', '/arap/vendor', undefined, bearer)).status, 200, 'the credential works at its own dataset');
  const atB = apiClient(ledger.url, b.dataset, undefined);
  for (const contract of CONTRACTS) {
    for (const { method, path } of concrete(contract)) {
      const res = await atB(method, path, bodyFor(method), bearer);
      t.equal(res.status, 403, `${method} ${path}: 403`);
    }
  }
});

t.test('every mounted endpoint refuses roles without its permission, naming it', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const keys = Object.fromEntries(
    await Promise.all(ROLES.map(async (r) => [r, (await a.addMember(r)).apiKey] as const)),
  );
  let checked = 0;
  for (const contract of CONTRACTS) {
    for (const { method, path, vc } of concrete(contract)) {
      const permission = contract.permission ? forSide(contract.permission, vc) : null;
      if (!permission) continue;
      for (const role of ROLES) {
        if (roleHas(role, permission)) continue;
        const res = await apiClient(ledger.url, a.dataset, keys[role])(method, path, bodyFor(method));
        t.equal(res.status, 403, `${role}: ${method} ${path} → 403`);
        t.match(res.body.error.message, permission, `names ${permission}`);
        checked++;
      }
    }
  }
  t.ok(checked > 10, `${checked} refusals checked`);
});
