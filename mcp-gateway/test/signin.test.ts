import t from 'tap';
import { Browser, eachStore, totpCode } from './helpers.ts';

eachStore(t, 'sign-in', async (t, { startStack }) => {
  const stack = await startStack(t);
  const a = await stack.company();

  t.test('email + password + TOTP; session cookie attributes; sign-out', async (t) => {
    const browser = new Browser(stack.url);
    const form = await browser.get('/signin');
    t.equal(form.status, 200);
    t.equal(form.headers.get('x-frame-options'), 'DENY');
    t.match(form.headers.get('content-security-policy'), /frame-ancestors 'none'/);
    t.equal(form.headers.get('cache-control'), 'no-store');
    t.match(form.html, /name="csrf"/);
    t.match(form.html, /autocomplete="one-time-code"/);
    t.notMatch(form.html, /demo-code-hint/, "a gateway that is not the demo says nothing of the demo's code");
    const done = await browser.submit(form, '/signin', {
      email: a.email.toUpperCase(),
      password: a.password,
      totp: totpCode(a.totpSecret),
    });
    t.equal(done.status, 303);
    t.equal(done.location, '/account/ai-connections');
    const cookie = done.headers.getSetCookie().find((c) => c.startsWith('gw_session='))!;
    t.match(cookie, /HttpOnly/);
    t.match(cookie, /SameSite=Lax/);
    t.notMatch(cookie, /Secure/, 'http public URL: not Secure');
    const sessionId = cookie.split(';')[0]!.split('=')[1]!;
    const rows = JSON.stringify(await stack.gateway.deps.db('sessions').select());
    t.notOk(rows.includes(sessionId), 'the session id is stored only as a hash');
    t.equal((await browser.get('/account/ai-connections')).status, 200, 'signed in');

    const page = await browser.get('/account/ai-connections');
    const out = await browser.submit(page, '/signout');
    t.equal(out.status, 303);
    t.equal((await browser.get('/account/ai-connections')).status, 303, 'signed out: back to sign-in');
  });

  t.test('a code already used is refused as used, with when the next comes; a wrong password hides it', async (t) => {
    const person = await stack.company();
    const code = totpCode(person.totpSecret);
    const first = new Browser(stack.url);
    const signedIn = await first.submit(await first.get('/signin'), '/signin', {
      email: person.email,
      password: person.password,
      totp: code,
    });
    t.equal(signedIn.status, 303, 'the code signs in once');

    const again = new Browser(stack.url);
    again.keepTotpStep = true;
    const used = await again.submit(await again.get('/signin'), '/signin', {
      email: person.email,
      password: person.password,
      totp: code,
    });
    t.equal(used.status, 401, 'refused');
    t.match(used.html, /This code was already used to sign in; each code signs in once\./);
    t.match(used.html, /Wait for the next code of your authenticator app \(in \d+ s\) and enter that one\./);
    t.notMatch(used.html, /is not correct/);

    const guess = new Browser(stack.url);
    guess.keepTotpStep = true;
    const wrong = await guess.submit(await guess.get('/signin'), '/signin', {
      email: person.email,
      password: `${person.password}x`,
      totp: code,
    });
    t.equal(wrong.status, 401);
    t.match(wrong.html, /The email, password or code is not correct\./, 'a wrong password: the same words as ever');
    t.notMatch(wrong.html, /already used/);
  });

  t.test('behind https: Secure, __Host- prefixed cookies', async (t) => {
    const https = await startStack(t, { PUBLIC_URL: 'https://books.example.test' });
    const c = await https.company();
    const browser = new Browser(https.url);
    const form = await browser.get('/signin');
    t.match(form.headers.getSetCookie().join('\n'), /^__Host-gw_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure/m);
    const done = await browser.submit(form, '/signin', {
      email: c.email,
      password: c.password,
      totp: totpCode(c.totpSecret),
    });
    t.equal(done.status, 303);
    t.match(
      done.headers.getSetCookie().join('\n'),
      /^__Host-gw_session=gws_[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=43200/m,
    );
    const meta = (await (await fetch(`${https.url}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
    };
    t.equal(meta.issuer, 'https://books.example.test', 'the issuer is the public URL');
  });

  t.test('open redirects after sign-in are refused', async (t) => {
    for (const target of [
      'https://evil.example.com/',
      '//evil.example.com/x',
      '/\\evil.example.com',
      '/oauth/token',
      'javascript:alert(1)',
    ]) {
      const browser = new Browser(stack.url);
      const done = await browser.signIn(a, target);
      t.equal(done.location, '/account/ai-connections', `return_to ${target} → own page`);
    }
  });

  t.test('every factor is required, and the answer does not say which failed', async (t) => {
    const browser = new Browser(stack.url);
    const wrongCode = String((Number(totpCode(a.totpSecret)) + 500_000) % 1_000_000).padStart(6, '0');
    const cases = [
      { email: a.email, password: 'wrong', totp: totpCode(a.totpSecret) },
      { email: a.email, password: a.password, totp: wrongCode },
      { email: a.email, password: a.password, totp: '' },
      { email: 'nobody@example.com', password: a.password, totp: totpCode(a.totpSecret) },
    ];
    const other = await a.addMember('admin'); // a separate account, so this test does not lock out `a`
    for (const c of cases) {
      const page = await browser.get('/signin');
      const res = await browser.submit(page, '/signin', c.email === a.email ? { ...c, email: other.email } : c);
      t.equal(res.status, 401);
      t.match(res.html, /The email, password or code is not correct/);
    }
  });

  t.test('backoff per account', async (t) => {
    const victim = await a.addMember('admin');
    const browser = new Browser(stack.url);
    for (let i = 0; i < 5; i++) {
      const page = await browser.get('/signin');
      t.equal(
        (await browser.submit(page, '/signin', { email: victim.email, password: `guess${i}`, totp: '123456' })).status,
        401,
      );
    }
    const page = await browser.get('/signin');
    const locked = await browser.submit(page, '/signin', {
      email: victim.email,
      password: victim.password,
      totp: totpCode(victim.totpSecret),
    });
    t.equal(locked.status, 429, 'even the right password waits');
    t.match(locked.html, /Too many failed sign-ins/);
    t.ok(Number(locked.headers.get('retry-after')) >= 29, 'Retry-After');
    const elsewhere = new Browser(stack.url);
    t.equal((await elsewhere.signIn(a)).status, 303, 'another account is not affected');
  });

  t.test('the block ends after its time, and doubles with each further failure', async (t) => {
    // the limits count in real time (in Redis or memory), so this gateway's blocks are short
    const quick = await startStack(t, {}, { signInBackoff: { account: { free: 2, baseMs: 1_000 } } });
    const c = await quick.company();
    const browser = new Browser(quick.url);
    const attempt = async (password: string) =>
      browser.submit(await browser.get('/signin'), '/signin', {
        email: c.email,
        password,
        totp: totpCode(c.totpSecret),
      });
    t.equal((await attempt('wrong-1')).status, 401);
    t.equal((await attempt('wrong-2')).status, 401, 'the second failure starts a 1 s block');
    const blocked = await attempt(c.password);
    t.equal(blocked.status, 429);
    t.equal(blocked.headers.get('retry-after'), '1');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    t.equal((await attempt('wrong-3')).status, 401, 'after the block: tried (and failed) again');
    const doubled = await attempt(c.password);
    t.equal(doubled.status, 429);
    t.equal(doubled.headers.get('retry-after'), '2', 'the third failure blocks for 2 s');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    t.equal((await new Browser(quick.url).signIn(c)).status, 303, 'after the wait the person can sign in');
    t.equal(
      (await attempt('wrong-4')).status,
      401,
      'a success cleared the count: a failure right after is not blocked',
    );
  });

  t.test('backoff per IP address', async (t) => {
    const ipStack = await startStack(t);
    const c = await ipStack.company();
    const browser = new Browser(ipStack.url);
    for (let i = 0; i < 20; i++) {
      const page = await browser.get('/signin');
      await browser.submit(page, '/signin', { email: `nobody${i}@example.com`, password: 'x', totp: '123456' });
    }
    const page = await browser.get('/signin');
    const locked = await browser.submit(page, '/signin', {
      email: c.email,
      password: c.password,
      totp: totpCode(c.totpSecret),
    });
    t.equal(locked.status, 429, 'the address waits, whatever account it tries');
  });
});
