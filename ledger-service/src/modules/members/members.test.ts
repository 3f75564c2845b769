import { randomBytes } from 'node:crypto';
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { createUser } from '../../db/users.ts';
import { loadEncryptionKey } from '../../secretKey.ts';
import { acceptInvitation, invitationsOfUser } from './index.ts';

type Ledger = Awaited<ReturnType<typeof startTestLedger>>;

/** The token in the link of the last invitation e-mail to `email`, read from the outbox. */
async function linkToken(ledger: Ledger, email: string): Promise<string> {
  const row = await ledger
    .db('messages')
    .whereRaw('? = any(to_addresses)', [email])
    .orderBy('id', 'desc')
    .first('body', 'subject');
  const token = /\/invitations\?token=([\w-]+)/.exec(row?.body ?? '')?.[1];
  if (!token) throw new Error(`no invitation e-mail to ${email}`);
  return token;
}

async function newAccount(ledger: Ledger, email: string): Promise<number> {
  const user = await createUser(ledger.db, loadEncryptionKey(ledger.config), {
    email,
    name: 'Invited Person',
    password: `pw-${randomBytes(8).toString('hex')}`,
  });
  return user.id;
}

t.test('members: list, change role and limit, remove; the last owner stays', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const owner = apiClient(ledger.url, a.dataset, a.apiKey);
  const admin = await a.addMember('admin');
  const asAdmin = apiClient(ledger.url, a.dataset, admin.apiKey);
  const other = await a.addMember('clerk', '100');

  const list = await owner('GET', '/system/members');
  t.equal(list.status, 200);
  t.same(list.body.map((m: { email: string; role: string }) => m.role).sort(), ['admin', 'clerk', 'owner']);
  t.equal(
    (await owner('POST', '/system/members', { email: other.email, role: 'viewer' })).status,
    405,
    'no direct add',
  );

  t.equal(
    (await asAdmin('POST', `/system/members/${other.userId}`, { role: 'owner' })).status,
    403,
    'only owners grant the owner role',
  );
  const changed = await asAdmin('POST', `/system/members/${other.userId}`, { role: 'viewer', approval_limit: 100 });
  t.equal(changed.status, 200, 'an admin changes a role, sending the unchanged limit along (as the app does)');
  t.same([changed.body.role, changed.body.approval_limit], ['viewer', 100]);

  const second = await a.addMember('owner');
  const demote = await apiClient(ledger.url, a.dataset, second.apiKey)('POST', `/system/members/${a.userId}`, {
    role: 'admin',
  });
  t.equal(demote.status, 200, 'an owner demotes another owner');
  const demoteLast = await owner('POST', `/system/members/${second.userId}`, { role: 'admin' });
  t.equal(demoteLast.status, 403, 'a non-owner cannot demote the last owner (the role rule)');
  t.equal(
    (await apiClient(ledger.url, a.dataset, second.apiKey)('DELETE', `/system/members/${second.userId}`)).status,
    409,
    'the last owner is not removed',
  );
  t.equal((await asAdmin('DELETE', `/system/members/${second.userId}`)).status, 403, 'admins do not remove owners');

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
  t.same(audit.body.map((e: { action: string }) => e.action).sort(), ['remove', 'update', 'update']);
  const removed = audit.body.find((e: { action: string }) => e.action === 'remove');
  t.same(removed.details.before, { role: 'clerk', approval_limit: null }, 'a removal records what was');
  t.equal(removed.details.after, null);
});

t.test('approval limits: only owners change them; nobody changes their own role or limit', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const owner = apiClient(ledger.url, a.dataset, a.apiKey);
  const admin = await a.addMember('admin', '1000');
  const asAdmin = apiClient(ledger.url, a.dataset, admin.apiKey);
  const accountant = await a.addMember('accountant', '500');
  const clerk = await a.addMember('clerk');
  const memberRow = async (userId: number) =>
    (await owner('GET', '/system/members')).body.find((m: { user_id: number }) => m.user_id === userId);

  const ownLimit = await asAdmin('POST', `/system/members/${admin.userId}`, { approval_limit: 1_000_000 });
  t.equal(ownLimit.status, 403, 'an admin does not raise their own limit');
  t.match(ownLimit.body.error.message, /own role or approval limit/);
  t.equal((await asAdmin('POST', `/system/members/${admin.userId}`, { approval_limit: null })).status, 403);
  t.equal((await asAdmin('POST', `/system/members/${admin.userId}`, { role: 'accountant' })).status, 403, 'nor role');
  t.same((await memberRow(admin.userId)).approval_limit, 1000);

  const ownersLimit = await asAdmin('POST', `/system/members/${a.userId}`, { approval_limit: 10 });
  t.equal(ownersLimit.status, 403, "an admin does not change an owner's limit");
  t.match(ownersLimit.body.error.message, /Only owners change approval limits/);
  const othersLimit = await asAdmin('POST', `/system/members/${accountant.userId}`, { approval_limit: 9999 });
  t.equal(othersLimit.status, 403, "nor anyone else's");
  t.same((await memberRow(accountant.userId)).approval_limit, 500);

  t.equal(
    (await owner('POST', `/system/members/${a.userId}`, { approval_limit: 5 })).status,
    403,
    'an owner does not change their own limit',
  );
  t.equal((await owner('POST', `/system/members/${a.userId}`, { role: 'admin' })).status, 403, 'nor own role');

  const set = await owner('POST', `/system/members/${accountant.userId}`, { approval_limit: 2500.5 });
  t.equal(set.status, 200, 'an owner sets the limit of another member');
  t.equal(set.body.approval_limit, 2500.5);

  const promoted = await asAdmin('POST', `/system/members/${clerk.userId}`, { role: 'accountant' });
  t.equal(promoted.status, 200, 'an admin makes a clerk (no limit) an accountant');
  t.equal(promoted.body.approval_limit, 0, 'who approves nothing until an owner sets a limit');

  const audit = await owner('GET', '/system/audit?entity=member');
  const byEntity = (id: number) =>
    audit.body.filter((e: { entity_id: string | number }) => Number(e.entity_id) === id).map((e: any) => e.details);
  t.same(
    byEntity(accountant.userId).map((d: any) => [d.before, d.after]),
    [
      [
        { role: 'accountant', approval_limit: 500 },
        { role: 'accountant', approval_limit: 2500.5 },
      ],
    ],
    'the change is audited with before and after',
  );
  t.same(
    byEntity(clerk.userId).map((d: any) => [d.before, d.after]),
    [
      [
        { role: 'clerk', approval_limit: null },
        { role: 'accountant', approval_limit: 0 },
      ],
    ],
  );
});

t.test('invitations: the same answer with or without an account; accept, withdraw, expire', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const owner = apiClient(ledger.url, a.dataset, a.apiKey);
  const admin = await a.addMember('admin');
  const asAdmin = apiClient(ledger.url, a.dataset, admin.apiKey);
  const withAccount = `anna-${randomBytes(4).toString('hex')}@example.test`;
  const annaId = await newAccount(ledger, withAccount);
  const noAccount = `ben-${randomBytes(4).toString('hex')}@example.test`;

  const shape = (r: { status: number; body: any; headers: Headers }) => ({
    status: r.status,
    keys: Object.keys(r.body).sort(),
    location: /\/system\/invitations\/\d+$/.test(r.headers.get('location') ?? ''),
  });
  const known = await asAdmin('POST', '/system/invitations', { email: withAccount.toUpperCase(), role: 'accountant' });
  const unknown = await asAdmin('POST', '/system/invitations', { email: noAccount, role: 'accountant' });
  t.same(
    shape(known),
    shape(unknown),
    'the same status, fields and Location whether or not the address has an account',
  );
  t.equal(known.status, 201);
  t.equal(known.body.email, withAccount, 'the address in lower case');
  t.equal(known.body.approval_limit, 0, "an admin's invitation approves nothing until an owner sets a limit");
  t.notOk('user_id' in known.body, 'nothing about the person');
  const days = (Date.parse(known.body.expires_at) - Date.parse(known.body.created_at)) / 86_400_000;
  t.equal(Math.round(days), 7, 'open for 7 days');

  t.equal((await asAdmin('POST', '/system/invitations', { email: noAccount, role: 'owner' })).status, 403);
  t.equal(
    (await asAdmin('POST', '/system/invitations', { email: noAccount, role: 'clerk', approval_limit: 5 })).status,
    403,
    'only owners put a limit in an invitation',
  );
  t.equal((await asAdmin('POST', '/system/invitations', { email: noAccount, role: 'clerk' })).status, 409, 'once');
  t.equal((await owner('POST', '/system/invitations', { email: a.email, role: 'clerk' })).status, 409, 'a member');

  const listed = await owner('GET', '/system/invitations');
  t.same(listed.body.map((i: { email: string }) => i.email).sort(), [withAccount, noAccount].sort());
  t.equal((await owner('GET', `/system/invitations/${known.body.id}`)).body.role, 'accountant');

  // the e-mail carries the app link; only its token's hash is stored
  const token = await linkToken(ledger, withAccount);
  const stored = await ledger.db('invitations').where({ id: known.body.id }).first('token_hash');
  t.not(stored?.token_hash, token);
  t.notOk(JSON.stringify(await ledger.db('invitations').select('*')).includes(token), 'the token is not stored');

  // a wrong person: another account, even with the link
  const eveId = await newAccount(ledger, `eve-${randomBytes(4).toString('hex')}@example.test`);
  const eveView = await invitationsOfUser(ledger.db, eveId, token);
  t.same(eveView, { invitations: [], linked: null }, "another person sees none, not even with the link's token");
  await t.rejects(acceptInvitation(ledger.db, eveId, known.body.id), { code: 'not_found' }, 'nor accepts it');

  const annaView = await invitationsOfUser(ledger.db, annaId, token);
  t.same(annaView.linked, known.body.id, 'the link names the invitation');
  t.same(annaView.invitations[0]?.company, { dataset: a.dataset, name: a.company.name });
  const accepted = await acceptInvitation(ledger.db, annaId, known.body.id);
  t.same(accepted, { dataset: a.dataset, name: a.company.name, role: 'accountant' });
  const anna = (await owner('GET', '/system/members')).body.find((m: { email: string }) => m.email === withAccount);
  t.same([anna?.role, anna?.approval_limit], ['accountant', 0], 'a member with the invited role and limit');
  await t.rejects(acceptInvitation(ledger.db, annaId, known.body.id), { code: 'not_found' }, 'accepted once');
  t.same(
    (await owner('GET', '/system/invitations')).body.map((i: { email: string }) => i.email),
    [noAccount],
  );

  // the other address signs up later and still accepts
  const benId = await newAccount(ledger, noAccount);
  t.equal((await acceptInvitation(ledger.db, benId, unknown.body.id)).role, 'accountant', 'signed up later');

  // withdrawn
  const carl = `carl-${randomBytes(4).toString('hex')}@example.test`;
  const carlId = await newAccount(ledger, carl);
  const toCarl = await owner('POST', '/system/invitations', { email: carl, role: 'viewer', approval_limit: 50 });
  t.equal(toCarl.body.approval_limit, 50, 'an owner sets the limit');
  t.equal((await asAdmin('DELETE', `/system/invitations/${toCarl.body.id}`)).status, 204, 'withdrawn');
  t.equal((await asAdmin('DELETE', `/system/invitations/${toCarl.body.id}`)).status, 404, 'once');
  t.same((await invitationsOfUser(ledger.db, carlId, undefined)).invitations, []);
  await t.rejects(acceptInvitation(ledger.db, carlId, toCarl.body.id), { code: 'not_found' }, 'no longer accepted');

  // expired
  const again = await owner('POST', '/system/invitations', { email: carl, role: 'viewer' });
  t.equal(again.status, 201, 'a withdrawn invitation makes way for a new one');
  await ledger
    .db('invitations')
    .where({ id: again.body.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  t.same((await invitationsOfUser(ledger.db, carlId, undefined)).invitations, [], 'an expired one is not shown');
  await t.rejects(acceptInvitation(ledger.db, carlId, again.body.id), { code: 'not_found' }, 'nor accepted');
  t.same((await owner('GET', '/system/invitations')).body, [], 'nor listed as open');
  t.equal((await owner('POST', '/system/invitations', { email: carl, role: 'viewer' })).status, 201, 'renewed');

  const audit = await owner('GET', '/system/audit?entity=invitation');
  t.same(audit.body.map((e: { action: string }) => e.action).sort(), [
    'accept',
    'accept',
    'create',
    'create',
    'create',
    'create',
    'create',
    'withdraw',
  ]);
  const joined = (await owner('GET', '/system/audit?entity=member')).body.find(
    (e: any) => Number(e.entity_id) === annaId,
  );
  t.same(
    [joined?.action, joined?.details.before, joined?.details.after],
    ['add', null, { role: 'accountant', approval_limit: 0 }],
  );
});
