import t from 'tap';
import {
  authorize,
  authorizePath,
  Browser,
  formFields,
  pkce,
  REDIRECT,
  registerClient,
  startStack,
  totpCode,
} from './helpers.ts';

t.test('authorization endpoint', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const resource = `${stack.url}/mcp/${a.dataset}`;
  const client = (
    await registerClient(stack, {
      redirect_uris: [REDIRECT, 'https://app.example.com/oauth/cb', 'com.example.app:/cb'],
    })
  ).body;
  const { challenge } = pkce();
  const good = {
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
    state: 'xyz',
  };
  const browser = new Browser(stack.url);
  await browser.signIn(a);

  t.test('client and redirect URI problems: an error page, never a redirect', async (t) => {
    const cases: [string, Record<string, string | undefined>][] = [
      ['no client_id', { ...good, client_id: undefined }],
      ['unknown client', { ...good, client_id: 'dcr_AAAAAAAAAAAAAAAAAAAAAA' }],
      ['malformed client id', { ...good, client_id: '<script>' }],
      ['open redirect: foreign URI', { ...good, redirect_uri: 'https://evil.example.com/cb' }],
      ['different path', { ...good, redirect_uri: 'https://app.example.com/oauth/other' }],
      ['extra path segment', { ...good, redirect_uri: 'https://app.example.com/oauth/cb/x' }],
      ['added query', { ...good, redirect_uri: 'https://app.example.com/oauth/cb?x=1' }],
      ['mismatched port on a non-loopback host', { ...good, redirect_uri: 'https://app.example.com:8443/oauth/cb' }],
      ['scheme changed to http', { ...good, redirect_uri: 'http://app.example.com/oauth/cb' }],
      ['case changed host', { ...good, redirect_uri: 'https://APP.example.com/oauth/cb' }],
      ['loopback with another path', { ...good, redirect_uri: 'http://127.0.0.1:7777/other' }],
      ['loopback with another host name', { ...good, redirect_uri: 'http://localhost:7777/callback' }],
      ['userinfo trick', { ...good, redirect_uri: 'https://app.example.com@evil.example.com/oauth/cb' }],
      ['several registered, none sent', { ...good, redirect_uri: undefined }],
      ['custom scheme with another path', { ...good, redirect_uri: 'com.example.app:/other' }],
    ];
    for (const [label, params] of cases) {
      const page = await browser.get(authorizePath(params));
      t.equal(page.status, 400, `${label}: 400`);
      t.equal(page.location, null, `${label}: no redirect`);
      t.match(page.headers.get('content-type'), /text\/html/);
      t.match(page.html, /cannot be used/);
      t.notMatch(page.html, /<script>/, 'input is escaped');
    }
    const repeated = await browser.get(
      `${authorizePath(good)}&redirect_uri=${encodeURIComponent('https://evil.example.com/cb')}`,
    );
    t.equal(repeated.status, 400, 'repeated redirect_uri: error page');
  });

  t.test('other problems: redirect with error, error_description, state and iss', async (t) => {
    const cases: [string, Record<string, string | undefined>, string][] = [
      ['response_type token', { ...good, response_type: 'token' }, 'unsupported_response_type'],
      ['no response_type', { ...good, response_type: undefined }, 'invalid_request'],
      ['no PKCE', { ...good, code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      ['plain PKCE', { ...good, code_challenge_method: 'plain' }, 'invalid_request'],
      ['malformed challenge', { ...good, code_challenge: 'short' }, 'invalid_request'],
      ['no resource', { ...good, resource: undefined }, 'invalid_target'],
      ['resource of an unknown dataset', { ...good, resource: `${stack.url}/mcp/no-such-co` }, 'invalid_target'],
      [
        'resource on another origin',
        { ...good, resource: `https://evil.example.com/mcp/${a.dataset}` },
        'invalid_target',
      ],
      ['resource with a trailing path', { ...good, resource: `${resource}/x` }, 'invalid_target'],
      ['unknown scope', { ...good, scope: 'accounting:read admin:all' }, 'invalid_scope'],
    ];
    for (const [label, params, error] of cases) {
      const page = await browser.get(authorizePath(params));
      t.equal(page.status, 302, `${label}: redirect`);
      const to = new URL(page.location!);
      t.equal(`${to.origin}${to.pathname}`, REDIRECT, `${label}: to the registered URI`);
      t.equal(to.searchParams.get('error'), error, `${label}: ${error}`);
      t.ok(to.searchParams.get('error_description'), `${label}: description`);
      t.equal(to.searchParams.get('state'), 'xyz', `${label}: state`);
      t.equal(to.searchParams.get('iss'), stack.url, `${label}: iss (RFC 9207)`);
    }
    const noState = await browser.get(authorizePath({ ...good, state: undefined, resource: undefined }));
    t.notOk(new URL(noState.location!).searchParams.has('state'), 'no state sent: none returned');
    const repeated = await browser.get(`${authorizePath(good)}&scope=a&scope=b`);
    t.equal(new URL(repeated.location!).searchParams.get('error'), 'invalid_request', 'repeated parameter');
  });

  t.test('success: consent, then a code with state and iss; the loopback port may change', async (t) => {
    const fresh = new Browser(stack.url);
    const loopback = 'http://127.0.0.1:54321/callback';
    const first = await fresh.get(authorizePath({ ...good, redirect_uri: loopback }));
    t.equal(first.status, 302);
    t.match(first.location, /^\/signin\?return_to=/, 'not signed in: to the sign-in page');
    const { code, callback, consent } = await authorize(stack, fresh, a, { ...good, redirect_uri: loopback });
    t.equal(`${callback.origin}${callback.pathname}`, loopback, 'sent back to the port used in the request');
    t.match(code, /^mcpac_/);
    t.equal(callback.searchParams.get('state'), 'xyz');
    t.equal(callback.searchParams.get('iss'), stack.url);
    t.equal(consent.headers.get('x-frame-options'), 'DENY');
    t.match(consent.headers.get('content-security-policy'), /frame-ancestors 'none'/);
    t.equal(consent.headers.get('cache-control'), 'no-store');
    const row = await stack.gateway.deps.db('authorization_codes').first();
    t.notOk(JSON.stringify(row).includes(code), 'the code is stored only as a hash');

    const custom = await authorize(stack, fresh, a, { ...good, redirect_uri: 'com.example.app:/cb' });
    t.equal(custom.callback.protocol, 'com.example.app:', 'custom app scheme');
    const single = (await registerClient(stack, { redirect_uris: ['https://one.example.com/cb'] })).body;
    const implicitUri = await authorize(stack, fresh, a, {
      ...good,
      client_id: single.client_id,
      redirect_uri: undefined,
    });
    t.equal(
      `${implicitUri.callback.origin}${implicitUri.callback.pathname}`,
      'https://one.example.com/cb',
      'one registered URI: redirect_uri may be left out',
    );
  });

  t.test('deny → access_denied', async (t) => {
    const page = await browser.get(authorizePath(good));
    t.equal(page.status, 200);
    const done = await browser.submit(page, '/oauth/authorize', { decision: 'deny' });
    t.equal(done.status, 303);
    const to = new URL(done.location!);
    t.equal(to.searchParams.get('error'), 'access_denied');
    t.equal(to.searchParams.get('state'), 'xyz');
    t.equal(to.searchParams.get('iss'), stack.url);
    t.notOk(to.searchParams.has('code'));
  });

  t.test('consent form tampering', async (t) => {
    const page = await browser.get(authorizePath(good));
    const unknownLevel = await browser.submit(page, '/oauth/authorize', { decision: 'allow', area_bank: 'admin' });
    t.equal(unknownLevel.status, 400, 'an area cannot be granted a level the form does not offer');
    const nothing = await browser.submit(page, '/oauth/authorize', {
      decision: 'allow',
      area_accounting: 'none',
      area_invoices: 'none',
      area_contacts: 'none',
      area_bank: 'none',
      area_documents: 'none',
    });
    t.equal(nothing.status, 422, 'nothing chosen: the page asks again');
    t.match(nothing.html, /Choose at least one area/);
    const swapped = await browser.submit(page, '/oauth/authorize', {
      decision: 'allow',
      redirect_uri: 'https://evil.example.com/cb',
    });
    t.equal(swapped.status, 400, 'a changed redirect_uri in the form: error page');
    t.equal(swapped.location, null);
  });

  t.test('CSRF: the consent and sign-in forms refuse posts without the token', async (t) => {
    const page = await browser.get(authorizePath(good));
    const noToken = await browser.submit(page, '/oauth/authorize', { decision: 'allow', csrf: '' });
    t.equal(noToken.status, 403);
    t.equal(noToken.location, null, 'no code is issued');
    const forged = await browser.submit(page, '/oauth/authorize', { decision: 'allow', csrf: 'A'.repeat(43) });
    t.equal(forged.status, 403);
    const fromOtherOrigin = await browser.request(
      'POST',
      '/oauth/authorize',
      { ...formFields(page.html, '/oauth/authorize'), decision: 'allow' },
      { origin: 'https://evil.example.com' },
    );
    t.equal(fromOtherOrigin.status, 403, 'the right token but a foreign Origin: refused');

    // an attacker's browser has its own cookie: the victim's token does not fit it
    const attacker = new Browser(stack.url);
    await attacker.get('/signin');
    const victimToken = /name="csrf" value="([^"]+)"/.exec(page.html)![1]!;
    const signin = await attacker.request('POST', '/signin', {
      csrf: victimToken,
      email: a.email,
      password: a.password,
      totp: totpCode(a.totpSecret),
      return_to: '/account/ai-connections',
    });
    t.equal(signin.status, 403, 'sign-in with a token of another browser: refused');
    const noCookie = new Browser(stack.url);
    const bare = await noCookie.request('POST', '/signin', {
      email: a.email,
      password: a.password,
      totp: totpCode(a.totpSecret),
    });
    t.equal(bare.status, 403, 'sign-in without any CSRF token: refused');
  });

  t.test('who may consent', async (t) => {
    const clerk = await a.addMember('clerk');
    const clerkBrowser = new Browser(stack.url);
    await clerkBrowser.signIn(clerk);
    const page = await clerkBrowser.get(authorizePath(good));
    t.equal(page.status, 403);
    t.match(page.html, /Only owners and admins/);
    t.notMatch(page.html, /name="decision" value="allow"/, 'no allow button');
    const back = await clerkBrowser.submit(page, '/oauth/authorize', { decision: 'deny' });
    t.equal(new URL(back.location!).searchParams.get('error'), 'access_denied');
    const forcedAllow = await clerkBrowser.submit(page, '/oauth/authorize', { decision: 'allow' });
    t.equal(
      new URL(forcedAllow.location!).searchParams.get('error'),
      'access_denied',
      'a forged allow from a clerk: access_denied',
    );

    const admin = await a.addMember('admin');
    const adminBrowser = new Browser(stack.url);
    await adminBrowser.signIn(admin);
    t.equal((await adminBrowser.get(authorizePath(good))).status, 200, 'an admin may consent');

    const off = await stack.company({ aiOn: false });
    const offBrowser = new Browser(stack.url);
    await offBrowser.signIn(off);
    const offPage = await offBrowser.get(authorizePath({ ...good, resource: `${stack.url}/mcp/${off.dataset}` }));
    t.equal(offPage.status, 403);
    t.match(offPage.html, /AI connections are switched off/);
    const offBack = await offBrowser.submit(offPage, '/oauth/authorize', { decision: 'deny' });
    t.equal(new URL(offBack.location!).searchParams.get('error'), 'access_denied');

    const stranger = await stack.company();
    const strangerBrowser = new Browser(stack.url);
    await strangerBrowser.signIn(stranger);
    const foreign = await strangerBrowser.get(authorizePath(good));
    t.equal(foreign.status, 403, 'someone without access to the company');
    t.match(foreign.html, /no access/);
  });
});
