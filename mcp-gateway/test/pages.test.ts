import t from 'tap';
import { Browser, connect, startStack } from './helpers.ts';

t.test('AI connections pages', async (t) => {
  const stack = await startStack(t);
  const resolve = (token: string) => stack.gateway.deps.connections.resolveAccessToken(token);

  t.test('My Profile → AI connections: list and disconnect own connections', async (t) => {
    const a = await stack.company();
    const browser = new Browser(stack.url);
    const { tokens } = await connect(stack, a, { browser, choices: { invoices: 'write', bank: 'read' } });
    const page = await browser.get('/account/ai-connections');
    t.equal(page.status, 200);
    t.equal(page.headers.get('x-frame-options'), 'DENY');
    t.match(page.html, /Test Assistant/);
    t.match(page.html, a.company.name);
    t.match(page.html, /Invoices and bills: Read and change/);
    t.match(page.html, /Bank: Read/);
    t.match(page.html, /Unverified app/);
    const id = /data-connection="([^"]+)"/.exec(page.html)![1]!;

    const noCsrf = await browser.request('POST', `/account/ai-connections/${id}/disconnect`, { csrf: 'x' });
    t.equal(noCsrf.status, 403, 'CSRF refused');
    t.ok((await resolve(tokens.access_token)).ok, 'still connected');

    const other = await stack.company();
    const stranger = new Browser(stack.url);
    await stranger.signIn(other);
    const strangerPage = await stranger.get('/account/ai-connections');
    t.match(strangerPage.html, /no active AI connections/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(strangerPage.html)![1]!;
    const notHis = await stranger.request('POST', `/account/ai-connections/${id}/disconnect`, { csrf });
    t.equal(notHis.status, 404, "someone else's connection cannot be disconnected here");
    t.ok((await resolve(tokens.access_token)).ok);

    const done = await browser.submit(page, `/account/ai-connections/${id}/disconnect`);
    t.equal(done.status, 303);
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'revoked' }, 'tokens stop working at once');
    const after = await browser.get(done.location!);
    t.match(after.html, /The connection has ended/);
    t.match(after.html, /no active AI connections/);
  });

  t.test('System → Management → AI connections: all connections, disconnect any, the switch', async (t) => {
    const a = await stack.company();
    const admin = await a.addMember('admin');
    const ownerBrowser = new Browser(stack.url);
    const adminConn = await connect(stack, a, { person: admin });
    const ownerConn = await connect(stack, a, { browser: ownerBrowser, choices: { bank: 'read' } });

    const index = await ownerBrowser.get('/management/ai-connections');
    t.equal(index.status, 302, 'one managed company: straight to it');
    const page = await ownerBrowser.get(index.location!);
    t.equal(page.status, 200);
    t.match(page.html, admin.email);
    t.match(page.html, a.email);
    t.match(page.html, /AI connections are on\./);
    const adminRow = new RegExp(
      `data-connection="([^"]+)"><td>admin user<br\\s*/?><small>${admin.email.replace(/[.]/g, '\\.')}`,
    ).exec(page.html);
    t.ok(adminRow, "the admin's connection is listed");
    const base = `/management/${a.dataset}/ai-connections`;
    const done = await ownerBrowser.submit(page, `${base}/${adminRow![1]}/disconnect`);
    t.equal(done.status, 303);
    t.match(await resolve(adminConn.tokens.access_token), { ok: false, reason: 'revoked' });
    const row = await stack.gateway.deps.db('connections').where({ id: adminRow![1] }).first();
    t.equal(row?.end_reason, 'disconnected_by_admin');
    t.ok((await resolve(ownerConn.tokens.access_token)).ok, 'the others stay');

    // a clerk may not see or use the page
    const clerk = await a.addMember('clerk');
    const clerkBrowser = new Browser(stack.url);
    await clerkBrowser.signIn(clerk);
    t.equal((await clerkBrowser.get(base)).status, 403);
    t.equal((await clerkBrowser.get('/management/ai-connections')).status, 403);
    const clerkCsrf = /name="csrf" value="([^"]+)"/.exec((await clerkBrowser.get('/account/ai-connections')).html)![1]!;
    t.equal((await clerkBrowser.request('POST', `${base}/switch`, { csrf: clerkCsrf, enabled: 'off' })).status, 403);

    // CSRF on the switch
    const page2 = await ownerBrowser.get(base);
    t.equal((await ownerBrowser.request('POST', `${base}/switch`, { csrf: 'nope', enabled: 'off' })).status, 403);
    // switching off ends every connection of the company, and stays so when switched on again
    const off = await ownerBrowser.submit(page2, `${base}/switch`);
    t.equal(off.status, 303);
    const offPage = await ownerBrowser.get(off.location!);
    t.match(offPage.html, /AI connections are off\./);
    t.match(offPage.html, /There are no active AI connections/);
    t.match(await resolve(ownerConn.tokens.access_token), { ok: false, reason: 'ended' });
    const company = (await stack.ledger.db('companies').where({ id: a.company.id }).first())!;
    t.equal(company.ai_connections_enabled, false, "stored in the ledger's company settings");
    const on = await ownerBrowser.submit(offPage, `${base}/switch`);
    t.equal(on.status, 303);
    t.equal((await stack.ledger.db('companies').where({ id: a.company.id }).first())!.ai_connections_enabled, true);
    t.match(await resolve(ownerConn.tokens.access_token), { ok: false, reason: 'ended' }, 'not restored');
    const audit = await stack.ledger.db.transaction(async (tx) => {
      await tx.raw(`select set_config('app.company_id', ?, true)`, [String(a.company.id)]);
      return tx('audit_log').where({ company_id: a.company.id, entity: 'company' }).orderBy('id').pluck('action');
    });
    t.same(audit, ['ai_connections_off', 'ai_connections_on'], 'audited in the ledger');
  });

  t.test('pages need a session', async (t) => {
    const anon = new Browser(stack.url);
    const r = await anon.get('/account/ai-connections');
    t.equal(r.status, 303);
    t.match(r.location, /^\/signin\?return_to=%2Faccount%2Fai-connections/);
    t.equal((await anon.get('/management/ai-connections')).status, 303);
  });
});
