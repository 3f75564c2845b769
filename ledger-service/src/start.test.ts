/**
 * `npm start`: the first start and its demo, PUBLIC_URL's default, and the refusals before
 * anything is written (bad settings, taken ports). Stopping: stop.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { baseEnv, firstAnswer, freePort, ledgerCli, refused, start, takenPort, tmp } from '../test/platform.ts';

// several real starts of the whole platform: more than the default time of a test file
t.setTimeout(600_000);

t.test('first start on an empty embedded database creates the demo company', async (t) => {
  const dataDir = tmp('ledger-start-');
  const env = baseEnv(dataDir);
  const first = await start(env);
  t.teardown(() => first.child.kill('SIGKILL'));

  t.match(first.output(), /Demo company "demo"/, 'prints the demo credentials');
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
  const port = new URL(first.url).port;
  t.match(demo, {
    api_url: `http://localhost:${port}`,
    dataset: 'demo',
    base_url: `http://localhost:${port}/client/demo`,
    api_key: /^ak_/,
  });
  t.match(first.output(), demo.api_key);
  t.match(first.output(), `npx ledger totp ${demo.user.email}`, 'and says where the sign-in code comes from');
  const signIn = await (await fetch(`${first.url}/signin`)).text();
  t.match(
    signIn,
    /id="demo-code-hint">.*npx ledger totp owner@demo\.example\.com/,
    'so does the sign-in page of the demo',
  );

  const res = await fetch(`${first.url}/client/demo/auth/validate_api`, {
    method: 'POST',
    headers: { 'X-API-Key': demo.api_key },
  });
  t.same(await res.json(), { success: 1 }, 'the demo key works through the public origin');
  const vendors = await fetch(`${first.ledgerUrl}/client/demo/arap/vendor`, { headers: { 'X-API-Key': demo.api_key } });
  t.ok(((await vendors.json()) as unknown[]).length >= 2, 'demo vendors');
  const created = await fetch(`${first.ledgerUrl}/client/demo/arap/customer`, {
    method: 'POST',
    headers: { 'X-API-Key': demo.api_key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Embedded AG' }),
  });
  t.equal(created.status, 201, 'writes work through RLS on PGlite');

  const whileRunning = await ledgerCli(['key', 'list', 'demo'], env);
  t.equal(whileRunning.code, 0, `the CLI works through the running server's embedded database: ${whileRunning.stderr}`);
  const secondServer = await ledgerCli(['serve'], env);
  t.equal(secondServer.code, 1, 'but a second process does not open the embedded files');
  t.match(secondServer.stderr, /in use by process/);

  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'SIGTERM stops cleanly');
  t.notOk(existsSync(join(dataDir, 'embedded.lock')), 'and releases the lock');

  const keys = await ledgerCli(['key', 'list', 'demo', '--json'], env);
  t.equal(keys.code, 0, `the CLI works on the stopped embedded database ${keys.stderr}`);

  const shown = await ledgerCli(['demo', 'show', '--json'], env);
  t.equal(shown.code, 0, shown.stderr);
  t.same(JSON.parse(shown.stdout), demo, '`ledger demo show` prints the credentials again');
  const shownText = await ledgerCli(['demo', 'show'], env);
  t.match(shownText.stdout, demo.user.password);
  t.match(shownText.stdout, /▀|▄|█/, 'with the QR code of the second factor');

  const second = await start(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  t.notMatch(second.output(), /Demo company/, 'the demo is created only once');
  const again = await fetch(`${second.ledgerUrl}/client/demo/arap/customer?name=embedded`, {
    headers: { 'X-API-Key': demo.api_key },
  });
  t.equal(((await again.json()) as unknown[]).length, 1, 'data persists under the data directory');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0);
});

t.test('PUBLIC_URL defaults to http://localhost:$PORT: PORT alone moves every URL', async (t) => {
  const dataDir = tmp('ledger-start-');
  const port = await freePort();
  // a health check polling the port all through the start (it must neither hang nor hold up the start)
  const health = firstAnswer(`http://127.0.0.1:${port}/healthz`);
  const platform = await start(baseEnv(dataDir, { PORT: String(port) }));
  t.teardown(() => platform.child.kill('SIGKILL'));
  t.equal(await health, 200, 'a health check polling from the first moment gets its 200');
  const origin = `http://localhost:${port}`;

  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
  t.match(demo, { api_url: origin, base_url: `${origin}/client/demo`, mcp_url: `${origin}/mcp/demo` }, 'demo.json');
  const metadata = (await (
    await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`)
  ).json()) as Record<string, string>;
  t.equal(metadata.issuer, origin, 'the OAuth issuer');
  t.equal(metadata.token_endpoint, `${origin}/oauth/token`);
  const resource = (await (
    await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp/demo`)
  ).json()) as Record<string, string>;
  t.equal(resource.resource, `${origin}/mcp/demo`, 'the MCP resource URL');
  const page = await fetch(`http://127.0.0.1:${port}/client/demo/arap/vendor?limit=1`, {
    headers: { 'X-API-Key': demo.api_key },
  });
  await page.body?.cancel();
  t.match(page.headers.get('link'), `<${origin}/client/demo/arap/vendor?`, 'Link headers of paged lists');

  platform.child.kill('SIGTERM');
  t.equal(await platform.exited, 0);
});

t.test('a bad setting of either service stops the start before anything is written: one line, exit 2', async (t) => {
  const cases: [NodeJS.ProcessEnv, RegExp][] = [
    [{ PUBLIC_URL: 'not a url' }, /^start: PUBLIC_URL must be a URL, got "not a url"$/],
    [{ LEDGER_PORT: 'eighty' }, /^start: LEDGER_PORT must be a port number, got "eighty"$/],
    [{ PORT: '70000' }, /^start: PORT must be a port number, got "70000"$/],
    [{ GATEWAY_METRICS_PORT: 'x' }, /^start: GATEWAY_METRICS_PORT must be a port number/],
    [{ TRUST_PROXY: 'yes' }, /^start: TRUST_PROXY must be/],
    [{ REDIS_URL: 'http://cache.example' }, /^start: REDIS_URL must be a redis or rediss URL$/],
    [{ LEDGER_ENCRYPTION_KEY: 'c2hvcnQ=' }, /^start: LEDGER_ENCRYPTION_KEY must be 32 bytes, base64 encoded$/],
    [{ GATEWAY_PUBLIC_JWK: '{"kty":"RSA"}' }, /^start: GATEWAY_PUBLIC_JWK must be an Ed25519 public JWK/],
    [{ GATEWAY_PRIVATE_JWK: 'secret' }, /^start: GATEWAY_PRIVATE_JWK must be an Ed25519 private JWK/],
    [{ DOCUMENT_STORE: 's3' }, /^start: DOCUMENT_STORE must be postgres or directory, got "s3"$/],
    [{ LOG_LEVEL: 'loud' }, /^start: LOG_LEVEL must be one of/],
    // an address of no interface here (TEST-NET-3): found when the ports are taken, still before any write
    [
      { LEDGER_HOST: '203.0.113.7' },
      /^start: LEDGER_HOST: cannot listen on "203\.0\.113\.7" \(EADDRNOTAVAIL\): not an address of this machine$/,
    ],
  ];
  for (const [extra, message] of cases) {
    const dataDir = join(tmp('ledger-start-'), 'data');
    const run = await refused(baseEnv(dataDir, extra));
    const name = Object.keys(extra)[0]!;
    t.equal(run.code, 2, `${name}: exit code 2`);
    t.match(run.stderr.trimEnd(), message, `${name}: one line naming it`);
    t.equal(run.stderr.trimEnd().split('\n').length, 1, `${name}: only that line`);
    t.notOk(existsSync(dataDir), `${name}: no data directory, database or demo`);
  }
});

t.test(
  'a taken port stops the start: one line naming the variable and the port, exit 2, nothing left behind',
  async (t) => {
    for (const variable of ['PORT', 'LEDGER_PORT', 'GATEWAY_METRICS_PORT']) {
      // the gateway listens on every interface (HOST 0.0.0.0): a program on 127.0.0.1 holds its port too
      const port = await takenPort(t);
      const dataDir = join(tmp('ledger-start-'), 'data');
      const run = await refused(baseEnv(dataDir, { [variable]: String(port) }));
      t.equal(run.code, 2, `${variable}: exit code 2`);
      t.match(
        run.stderr.trimEnd(),
        new RegExp(
          `^start: ${variable}: port ${port} on \\S+ is in use by another program; stop it or set ${variable} ` +
            `to a free port$`,
        ),
        variable,
      );
      t.notOk(existsSync(dataDir), `${variable}: nothing written`);
    }

    // the same on a data directory in use before: the lock goes, the books stay as they were
    const dataDir = tmp('ledger-start-');
    const env = baseEnv(dataDir);
    const first = await start(env);
    first.child.kill('SIGTERM');
    t.equal(await first.exited, 0);
    const before = readdirSync(dataDir).sort();
    const port = await takenPort(t);
    const run = await refused({ ...env, GATEWAY_METRICS_PORT: String(port) });
    t.equal(run.code, 2);
    t.match(run.stderr, `GATEWAY_METRICS_PORT: port ${port}`);
    t.same(readdirSync(dataDir).sort(), before, 'no lock left, nothing new in the data directory');
    const keys = await ledgerCli(['key', 'list', 'demo', '--json'], env);
    t.equal(JSON.parse(keys.stdout).length, 1, 'the demo is as it was');
  },
);
