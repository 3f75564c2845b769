import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../src/config.ts';
import { loadKeys } from '../src/keys.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'gateway.mjs');

t.test('malformed configuration: one line naming the variable, exit code 2', async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /PORT/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL/],
    [{ GATEWAY_PRIVATE_JWK: '{"kty":"RSA"}' }, /GATEWAY_PRIVATE_JWK/],
  ];
  for (const [env, name] of cases) {
    const r = spawnSync(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    t.equal(r.status, 2, `${JSON.stringify(env)}: exit 2`);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !/npm warn/.test(l));
    t.equal(lines.length, 1, 'one line');
    t.match(lines[0], name);
  }
});

t.test('every setting is validated', async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: '70000' }, /PORT/],
    [{ PUBLIC_URL: 'ftp://x.example' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'https://x.example/?q=1' }, /PUBLIC_URL/],
    [{ LEDGER_URL: 'nope' }, /LEDGER_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ GATEWAY_PRIVATE_JWK: 'not json' }, /GATEWAY_PRIVATE_JWK/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    [{ GATEWAY_TEST_CIMD_ALLOW_PRIVATE: 'yes' }, /GATEWAY_TEST_CIMD_ALLOW_PRIVATE/],
  ];
  for (const [env, name] of cases) t.throws(() => loadConfig(env), name, JSON.stringify(env));
});

t.test('defaults', async (t) => {
  const c = loadConfig({});
  t.equal(c.publicUrl, 'http://localhost:3000');
  t.equal(c.port, 3000);
  t.equal(c.ledgerUrl, 'http://127.0.0.1:3001');
  t.equal(c.dbFile, './data/gateway.sqlite');
  t.equal(c.cimdAllowPrivate, false, 'the test-only CIMD setting is off');
  t.equal(loadConfig({ PUBLIC_URL: 'https://books.example.com/' }).publicUrl, 'https://books.example.com');
});

t.test('key pair generated on first start, private file 0600, public file for the ledger', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-keys-'));
  const config = loadConfig({ DATA_DIR: dir });
  const first = await loadKeys(config);
  t.equal(statSync(join(dir, 'gateway-private.jwk')).mode & 0o777, 0o600);
  const pub = JSON.parse(readFileSync(join(dir, 'gateway-public.jwk'), 'utf8'));
  t.same(pub, first.publicJwk);
  t.notOk('d' in pub, 'no private part in the public file');
  const second = await loadKeys(config);
  t.same(second.publicJwk, first.publicJwk, 'the same key on the next start');
});
