import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { TOTP, Secret } from 'otpauth';
import { createDb } from '../db/knex.ts';
import { runCli } from './main.ts';
import { verifyCredentials } from '../db/users.ts';
import { loadEncryptionKey } from '../secretKey.ts';
import { hashApiKey } from '../domain/secrets.ts';
import { apiClient, startTestLedger, TEST_DATABASE_URL, testConfig } from '../../test/helpers.ts';

const BIN = fileURLToPath(new URL('../../bin/ledger.mjs', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
const env = {
  ...process.env,
  DATABASE_URL: TEST_DATABASE_URL,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'https://books.example',
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

function ledger(args: string[], opts: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: opts.env ?? env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

/** The same CLI in this process (quicker for the many argument checks). */
async function inProcess(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: async () => '',
  });
  return { code, stdout, stderr, json: undefined };
}

const db = createDb(TEST_DATABASE_URL);
t.teardown(() => db.destroy());

t.test('company, user, member and keys from the command line', async (t) => {
  const dataset = `cli-${randomBytes(4).toString('hex')}`;
  const email = `anna@${dataset}.example`;

  const company = await ledger(['company', 'create', dataset, '--name', 'CLI Test AG', '--currency', 'EUR', '--json']);
  t.equal(company.code, 0, company.stderr);
  t.match(company.json, { id: Number, dataset, name: 'CLI Test AG', currency: 'EUR' });
  const accounts = await db('accounts').where({ company_id: company.json.id }).count<{ count: string }[]>('* as count');
  t.ok(Number(accounts[0]!.count) > 10, 'with the chart of accounts');
  const french = `${dataset}-fr`;
  const fr = await ledger([
    'company',
    'create',
    french,
    '--name',
    'CLI SA',
    '--chart',
    'kmu',
    '--language',
    'fr',
    '--json',
  ]);
  t.equal(fr.code, 0, fr.stderr);
  const frAccount = await db('accounts').where({ company_id: fr.json.id, accno: '1100' }).first('description');
  t.equal(frAccount?.description, 'Créances résultant de livraisons et prestations', 'the SME chart in French');
  const frCompany = await db('companies').where({ id: fr.json.id }).first('settings');
  t.equal(frCompany?.settings.language, 'fr', "and the company's language");

  const again = await ledger(['company', 'create', dataset, '--name', 'Again']);
  t.equal(again.code, 1, 'an existing dataset is refused');
  t.match(again.stderr, /^ledger: .*already exists\n$/);

  const user = await ledger(['user', 'create', email, '--name', 'Anna', '--password-stdin', '--json'], {
    stdin: 'correct horse battery\n',
  });
  t.equal(user.code, 0, user.stderr);
  t.match(user.json, { id: Number, email, totp_secret: /^[A-Z2-7]{32}$/, otpauth_uri: /^otpauth:\/\/totp\// });
  const code = new TOTP({ secret: Secret.fromBase32(user.json.totp_secret) }).generate();
  const key = loadEncryptionKey(testConfig({ dataDir }));
  t.ok(
    await verifyCredentials(db, key, email, 'correct horse battery', code),
    'password (without the newline) and TOTP work',
  );
  const stored = await db('users').where({ email }).first();
  t.notOk(JSON.stringify(stored).includes('correct horse battery'), 'the password is stored hashed');
  t.notOk(JSON.stringify(stored).includes(user.json.totp_secret), 'the TOTP secret is stored encrypted');

  const text = await ledger(['user', 'create', `bob@${dataset}.example`, '--name', 'Bob', '--password-stdin'], {
    stdin: 'another long password',
  });
  t.equal(text.code, 0);
  t.match(text.stdout, /TOTP secret: [A-Z2-7]{32}\notpauth URI: otpauth:\/\//, 'readable output prints secret and URI');

  const noKeyYet = await ledger(['key', 'create', dataset, '--user', email, '--label', 'x']);
  t.equal(noKeyYet.code, 1, 'a key needs a membership');
  t.match(noKeyYet.stderr, /not a member/);

  const member = await ledger([
    'member',
    'add',
    dataset,
    email,
    '--role',
    'accountant',
    '--approval-limit',
    '5000.50',
    '--json',
  ]);
  t.equal(member.code, 0, member.stderr);
  t.strictSame(
    member.json,
    { dataset, email, user_id: user.json.id, role: 'accountant', approval_limit: 5000.5 },
    'approval_limit as a JSON number',
  );
  const tooPrecise = await ledger([
    'member',
    'add',
    dataset,
    email,
    '--role',
    'accountant',
    '--approval-limit',
    '10.001',
  ]);
  t.equal(tooPrecise.code, 2, 'more decimals than the company currency (EUR) allows');
  t.match(tooPrecise.stderr, /--approval-limit.*EUR.*2 decimals/);
  const membership = (await db('memberships').where({ company_id: company.json.id, user_id: user.json.id }).first())!;
  t.equal(membership.role, 'accountant');
  t.equal(Number(membership.approval_limit), 5000.5);

  const created = await ledger(['key', 'create', dataset, '--user', email, '--label', 'erp sync', '--json']);
  t.equal(created.code, 0, created.stderr);
  t.match(created.json, { id: Number, label: 'erp sync', user: email, key: /^ak_[A-Za-z0-9_-]{43}$/ });
  t.equal(
    (await db('api_keys').where({ id: created.json.id }).first())!.key_hash,
    hashApiKey(created.json.key),
    'stored as a hash',
  );

  const served = await startTestLedger(t);
  const api = apiClient(served.url, dataset, created.json.key);
  t.equal((await api('POST', '/auth/validate_api')).status, 200, 'the key works over HTTP');

  const list = await ledger(['key', 'list', dataset, '--json']);
  t.equal(list.code, 0);
  t.same(
    list.json.map((k: { id: number; label: string; user: string }) => [k.id, k.label, k.user]),
    [[created.json.id, 'erp sync', email]],
  );
  t.notOk(list.stdout.includes(created.json.key), 'the list never shows the key');
  const listText = await ledger(['key', 'list', dataset]);
  t.match(listText.stdout, /^id\s+label\s+prefix\s+user/);

  const deleted = await ledger(['key', 'delete', dataset, String(created.json.id), '--json']);
  t.equal(deleted.code, 0);
  t.same(deleted.json, { id: created.json.id, deleted: true });
  t.equal((await api('POST', '/auth/validate_api')).status, 401, 'a deleted key stops working');
  t.equal((await ledger(['key', 'delete', dataset, String(created.json.id)])).code, 1, 'deleting twice fails');

  const audit = await db('audit_log').where({ company_id: company.json.id }).orderBy('id');
  t.same(
    audit.map((e) => [e.entity, e.action, e.via, e.via_label]),
    [
      ['company', 'create', 'cli', 'CLI'],
      ['membership', 'create', 'cli', 'CLI'],
      ['api_key', 'create', 'cli', 'CLI'],
      ['api_key', 'delete', 'cli', 'CLI'],
    ],
    'every change is audited via CLI',
  );
  t.equal(audit[1]!.user_id, user.json.id, 'against the user concerned');
  t.equal(
    (audit[1]!.details as { approval_limit?: unknown }).approval_limit,
    5000.5,
    'the audited approval limit is a number',
  );
});

t.test('demo --json prints the documented shape and a working setup', async (t) => {
  const dataset = `demo-${randomBytes(4).toString('hex')}`;
  const run = await ledger(['demo', '--dataset', dataset, '--json']);
  t.equal(run.code, 0, run.stderr);
  t.same(Object.keys(run.json).sort(), ['api_key', 'api_url', 'base_url', 'dataset', 'mcp_url', 'user']);
  t.same(Object.keys(run.json.user).sort(), ['email', 'password', 'totp_secret']);
  t.match(run.json, {
    api_url: 'https://books.example',
    dataset,
    base_url: `https://books.example/client/${dataset}`,
    mcp_url: `https://books.example/mcp/${dataset}`,
    api_key: /^ak_/,
  });

  const served = await startTestLedger(t, { dataDir });
  const api = apiClient(served.url, dataset, run.json.api_key);
  t.same((await api('POST', '/auth/validate_api')).body, { success: 1 });
  t.ok((await api('GET', '/arap/vendor')).body.length >= 2, 'with vendors');
  t.ok((await api('GET', '/arap/customer')).body.length >= 2, 'and customers');
  t.ok(
    (await api('GET', '/system/chart/accounts')).body.some((a: { links: string[] }) => a.links.includes('AP')),
    'and a chart',
  );
  const company = (await db('companies').where({ dataset }).first())!;
  t.equal(company.ai_connections_enabled, true, 'AI connections are switched on');
  const code = new TOTP({ secret: Secret.fromBase32(run.json.user.totp_secret) }).generate();
  t.ok(
    await verifyCredentials(
      db,
      loadEncryptionKey(testConfig({ dataDir })),
      run.json.user.email,
      run.json.user.password,
      code,
    ),
    'the owner can sign in',
  );

  const taken = await ledger(['demo', '--dataset', dataset, '--json']);
  t.equal(taken.code, 1);
  t.match(
    JSON.parse(taken.stderr),
    { error: { code: 'failed', message: /already exists/ } },
    'errors are JSON with --json',
  );
});

t.test('bad arguments and bad configuration exit with code 2 and one line', async (t) => {
  const cases: [string[], RegExp][] = [
    [[], /usage: ledger/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['company', 'create'], /missing argument <dataset>/],
    [['company', 'create', 'x-y'], /--name is required/],
    [['company', 'create', 'Bad Name!', '--name', 'n'], /dataset must be/],
    [['company', 'create', 'okname', '--name', 'n', '--currency', 'XXQ'], /currency/],
    [['company', 'create', 'okname', '--name', 'n', '--chart', 'nope'], /unknown chart template/],
    [['company', 'create', 'okname', '--name', 'n', '--language', 'rm'], /language must be de, fr, it or en/],
    [['company', 'create', 'okname', '--name', 'n', '--colour', 'red'], /Unknown option '--colour'/],
    [
      ['member', 'add', 'okname', 'a@b.example', '--role', 'boss'],
      /--role must be one of owner, admin, accountant, clerk, viewer/,
    ],
    [
      ['member', 'add', 'okname', 'a@b.example', '--role', 'clerk', '--approval-limit', '1,000'],
      /--approval-limit must be an amount/,
    ],
    [['user', 'create', 'not-an-email', '--name', 'n', '--password-stdin'], /not an e-mail address/],
    [['user', 'create', 'a@b.example', '--name', 'n'], /--password-stdin is required/],
    [['key', 'delete', 'okname', 'abc'], /<id> must be a key id/],
    [['key', 'list'], /missing argument <dataset>/],
    [['key', 'list', 'a', 'b'], /unexpected argument "b"/],
  ];
  for (const [args, message] of cases) {
    const run = await inProcess(args);
    t.equal(run.code, 2, `ledger ${args.join(' ')} → exit 2`);
    if (args.length > 0) {
      t.match(run.stderr, message);
      t.equal(run.stderr.trimEnd().split('\n').length, 1, 'one line');
    } else {
      t.match(run.stdout, message);
    }
  }
  const spawned = await ledger(['company', 'create', 'Bad Name!', '--name', 'n']);
  t.equal(spawned.code, 2, 'the process exits with code 2');
  t.match(spawned.stderr, /^ledger: dataset must be/);
  const shortPassword = await ledger(['user', 'create', 'short@b.example', '--name', 'n', '--password-stdin'], {
    stdin: 'short',
  });
  t.equal(shortPassword.code, 2);
  t.match(shortPassword.stderr, /at least 10 characters/);

  const badUrl = await ledger(['key', 'list', 'x', '--json'], { env: { ...env, DATABASE_URL: 'mysql://nope' } });
  t.equal(badUrl.code, 2, 'bad configuration → exit 2');
  t.match(JSON.parse(badUrl.stderr), { error: { code: 'config', message: /DATABASE_URL/ } });
  const badPort = await ledger(['serve'], { env: { ...env, LEDGER_PORT: 'eighty' } });
  t.equal(badPort.code, 2);
  t.equal(badPort.stderr, 'ledger: LEDGER_PORT must be a port number, got "eighty"\n', 'names the variable');
  const badLevel = await ledger(['migrate'], { env: { ...env, LOG_LEVEL: 'loud' } });
  t.equal(badLevel.code, 2);
  t.match(badLevel.stderr, /LOG_LEVEL/);
});

t.test('migrate and serve', async (t) => {
  const migrated = await ledger(['migrate', '--json']);
  t.equal(migrated.code, 0, migrated.stderr);
  t.same(migrated.json, { applied: [] }, 'the test database is already up to date');

  const child = spawn(process.execPath, [BIN, 'serve', '--json'], {
    env: { ...env, LEDGER_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).ledger_url);
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${out}`)));
  });
  t.equal((await fetch(`${url}/readyz`)).status, 200, 'serving');
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM stops it cleanly');
});
