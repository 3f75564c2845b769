/**
 * Invitations in the app, over HTTP against a real ledger and gateway: an admin invites from the
 * members page (the same answer for an address with or without an account), the e-mail's link
 * opens `/invitations`, only the invited address's account sees and accepts it, a withdrawn one
 * is gone; and the members page leaves out what a person may not change (limits for admins,
 * their own role and limit), while the ledger refuses it anyway.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { Browser, startStack, type Stack } from './helpers.ts';

/** The token of the last invitation e-mail to `email`, from the ledger's outbox. */
async function linkToken(stack: Stack, email: string): Promise<string> {
  const row = await stack.ledger
    .db('messages')
    .whereRaw('? = any(to_addresses)', [email])
    .orderBy('id', 'desc')
    .first('body');
  const token = /\/invitations\?token=([\w-]+)/.exec(row?.body ?? '')?.[1];
  if (!token) throw new Error(`no invitation e-mail to ${email}`);
  return token;
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

t.test('invitations in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const admin = await a.addMember('admin');
  const accountant = await a.addMember('accountant', '500');
  const adminBrowser = new Browser(stack.url);
  await adminBrowser.signIn(admin);
  const base = `/management/${a.dataset}/members`;

  const page = await adminBrowser.get(base);
  t.equal(page.status, 200);
  t.match(page.html, /id="limit-by-owners"/, 'an admin gets no approval-limit field in the invitation');
  t.notMatch(page.html, new RegExp(`id="limit-${accountant.userId}"`), "nor in a member's row");
  t.match(page.html, /data-own/, 'nor a form for their own role and limit');

  // the same answer whether or not the address has an account
  const invitee = await stack.company(); // a person with an account, not a member of a
  const nobody = `nobody-${randomBytes(4).toString('hex')}@example.test`;
  const known = await adminBrowser.submit(page, `${base}/invitations`, { email: invitee.email, role: 'accountant' });
  const unknown = await adminBrowser.submit(page, `${base}/invitations`, { email: nobody, role: 'accountant' });
  t.same([known.status, known.location], [303, `${base}?notice=invited`]);
  t.same([unknown.status, unknown.location], [known.status, known.location], 'the same answer');
  const listed = await adminBrowser.get(base);
  t.match(listed.html, new RegExp(`data-invitation="${invitee.email}"`));
  t.match(listed.html, new RegExp(`data-invitation="${nobody}"`));

  // an admin forging a limit is refused by the ledger
  const forged = await adminBrowser.request('POST', `${base}/${accountant.userId}`, {
    csrf: csrfOf(listed.html),
    role: 'accountant',
    approval_limit: '1000000',
  });
  t.equal(forged.status, 403);
  t.match(forged.html, /Only owners change approval limits/);

  const token = await linkToken(stack, invitee.email);
  t.notMatch(token, /[^\w-]/);

  // a wrong person opens the link
  const stranger = await stack.company();
  const strangerBrowser = new Browser(stack.url);
  await strangerBrowser.signIn(stranger);
  const strangerView = await strangerBrowser.get(`/invitations?token=${token}`);
  t.equal(strangerView.status, 200);
  t.match(strangerView.html, /id="link-not-open"/, 'the link is not open for them');
  t.notMatch(strangerView.html, a.company.name, 'and shows nothing of the invitation');
  const invitationId = (await stack.ledger.db('invitations').where({ email: invitee.email }).first('id'))!.id;
  const stolen = await strangerBrowser.request('POST', `/invitations/${invitationId}/accept`, {
    csrf: csrfOf(strangerView.html),
  });
  t.equal(stolen.status, 404, 'nor can they accept it');
  t.equal(
    (await stack.ledger.db('memberships').where({ company_id: a.company.id, user_id: stranger.userId })).length,
    0,
  );

  // the invited person: the link while signed out leads through sign-in back to it
  const inviteeBrowser = new Browser(stack.url);
  const signedOut = await inviteeBrowser.get(`/invitations?token=${token}`);
  t.equal(signedOut.status, 303);
  await inviteeBrowser.signIn(invitee, `/invitations?token=${token}`);
  const home = await inviteeBrowser.get('/');
  t.match(home.html, /id="open-invitations"/, 'the companies page tells of the invitation');
  const mine = await inviteeBrowser.get(`/invitations?token=${token}`);
  t.match(mine.html, new RegExp(`data-invitation="${a.dataset}" class="linked"`), 'the link names it');
  t.match(mine.html, /accountant, approval limit 0\.00/, "an admin's invitation: no approval until an owner sets one");
  t.equal(mine.headers.get('referrer-policy'), 'same-origin', 'the link (with its token) is not sent to other sites');
  const accepted = await inviteeBrowser.submit(mine, `/invitations/${invitationId}/accept`);
  t.equal(accepted.status, 303);
  t.match((await inviteeBrowser.get(accepted.location!)).html, /id="joined"/);
  const after = await inviteeBrowser.get('/');
  t.match(after.html, new RegExp(`data-company="${a.dataset}"`), 'a member now');
  t.notMatch(after.html, /id="open-invitations"/);
  const again = await inviteeBrowser.submit(mine, `/invitations/${invitationId}/accept`);
  t.equal(again.status, 404, 'accepted once');

  // withdrawn: the address signs up later, but the invitation is gone
  const withdrawPage = await adminBrowser.get(base);
  const nobodyId = (await stack.ledger.db('invitations').where({ email: nobody }).first('id'))!.id;
  const withdrawn = await adminBrowser.submit(withdrawPage, `${base}/invitations/${nobodyId}/withdraw`);
  t.same([withdrawn.status, withdrawn.location], [303, `${base}?notice=withdrawn`]);
  t.notMatch((await adminBrowser.get(base)).html, new RegExp(`data-invitation="${nobody}"`));
  t.equal(
    (await stack.ledger.db('invitations').where({ id: nobodyId }).first('withdrawn_at'))?.withdrawn_at instanceof Date,
    true,
  );
});
