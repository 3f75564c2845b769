/**
 * The app's service credential (kind 'app') against a real ledger: the signed-in person acts
 * with their own role whatever it is and whether AI connections are on or off; a person who
 * is no member is refused; what they change is audited "via app".
 */
import t from 'tap';
import { startStack } from './helpers.ts';

t.test('app credentials act as the person, with the role, audited via app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company({ aiOn: false });
  const other = await stack.company();
  const clerk = await a.addMember('clerk');
  const ledger = stack.gateway.deps.ledger;

  const asClerk = await ledger.callAsPerson({ userId: clerk.userId, dataset: a.dataset }, 'GET', '/system/company');
  t.equal(asClerk.status, 200, 'a clerk reads, though AI connections are off (no connection preconditions)');
  t.equal(
    (await ledger.callAsPerson({ userId: clerk.userId, dataset: a.dataset }, 'GET', '/system/api_keys')).status,
    403,
    "the clerk's role applies",
  );
  const stranger = await ledger.callAsPerson({ userId: other.userId, dataset: a.dataset }, 'GET', '/system/company');
  t.equal(stranger.status, 403, 'no member, no access');

  const vendor = await ledger.callAsPerson({ userId: clerk.userId, dataset: a.dataset }, 'POST', '/arap/vendor', {
    name: 'Via App AG',
  });
  t.equal(vendor.status, 201);
  const audit = await fetch(`${stack.url}/client/${a.dataset}/system/audit?entity=vendor`, {
    headers: { 'X-API-Key': a.apiKey },
  });
  const entries = (await audit.json()) as { user_id: number; via: string; via_text: string }[];
  t.same(
    entries.map((e) => [e.user_id, e.via, e.via_text]),
    [[clerk.userId, 'app', 'via app']],
  );

  await stack.ledger.db('users').where({ id: clerk.userId }).update({ active: false });
  t.equal(
    (await ledger.callAsPerson({ userId: clerk.userId, dataset: a.dataset }, 'GET', '/system/company')).status,
    403,
    'a deactivated person is refused',
  );
});
