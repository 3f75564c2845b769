import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('members: list, add by e-mail, change role and limit, remove; the last owner stays', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const owner = apiClient(ledger.url, a.dataset, a.apiKey);
  const admin = await a.addMember('admin');
  const asAdmin = apiClient(ledger.url, a.dataset, admin.apiKey);
  // a person with an account, member of another company only
  const other = await createTestCompany(ledger);

  const list = await owner('GET', '/system/members');
  t.equal(list.status, 200);
  t.same(list.body.map((m: { email: string; role: string }) => m.role).sort(), ['admin', 'owner']);

  const added = await asAdmin('POST', '/system/members', {
    email: other.email.toUpperCase(),
    role: 'clerk',
    approval_limit: 100,
  });
  t.equal(added.status, 201, 'added by e-mail (case-insensitive)');
  t.same(added.body, {
    user_id: other.userId,
    name: 'owner user',
    email: other.email,
    role: 'clerk',
    approval_limit: 100,
  });
  t.match(added.headers.get('location'), new RegExp(`/system/members/${other.userId}$`));
  t.equal(
    (await asAdmin('POST', '/system/members', { email: other.email, role: 'viewer' })).status,
    409,
    'already a member',
  );
  t.equal(
    (await asAdmin('POST', '/system/members', { email: 'nobody@nowhere.test', role: 'viewer' })).status,
    404,
    'no account',
  );
  t.equal(
    (await asAdmin('POST', `/system/members/${other.userId}`, { role: 'owner' })).status,
    403,
    'only owners grant the owner role',
  );

  const changed = await asAdmin('POST', `/system/members/${other.userId}`, {
    role: 'accountant',
    approval_limit: null,
  });
  t.equal(changed.status, 200);
  t.same([changed.body.role, changed.body.approval_limit], ['accountant', null]);

  const demoteLast = await owner('POST', `/system/members/${a.userId}`, { role: 'admin' });
  t.equal(demoteLast.status, 409, 'the last owner is not demoted');
  t.match(demoteLast.body.error.message, /last owner/);
  t.equal((await owner('DELETE', `/system/members/${a.userId}`)).status, 409, 'nor removed');
  t.equal((await asAdmin('DELETE', `/system/members/${a.userId}`)).status, 403, 'admins do not remove owners');

  const clerk = await a.addMember('clerk');
  t.equal(
    (await apiClient(ledger.url, a.dataset, clerk.apiKey)('GET', '/system/members')).status,
    403,
    'clerks do not manage members',
  );

  t.equal((await asAdmin('DELETE', `/system/members/${clerk.userId}`)).status, 204);
  t.equal(
    (await apiClient(ledger.url, a.dataset, clerk.apiKey)('GET', '/system/company')).status,
    403,
    "a removed member's key stops working",
  );

  const audit = await owner('GET', '/system/audit?entity=member');
  t.same(audit.body.map((e: { action: string }) => e.action).sort(), ['add', 'remove', 'update']);
});
