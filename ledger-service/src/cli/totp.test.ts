/**
 * The demo's second factor from the command line: `ledger totp <email>` (demo and development
 * users only), `ledger demo show`, and the QR code of the otpauth URI, read back by the
 * inbox's own QR reader from a picture of what the terminal shows.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { Secret, TOTP } from 'otpauth';
import t from 'tap';
import { createDb } from '../db/knex.ts';
import { checkCredentials, totpFor, unusedCode, verifyCredentials } from '../db/users.ts';
import { extractFile } from '../modules/inbox/extract.ts';
import { loadEncryptionKey } from '../secretKey.ts';
import { TEST_DATABASE_URL, testConfig } from '../../test/helpers.ts';
import { modulesOf, terminalQr } from './qr.ts';

const BIN = fileURLToPath(new URL('../../bin/ledger.mjs', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ledger(args: string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}

/** A PNG of the modules, 8 pixels each, as a phone's camera would see the terminal. */
function png(modules: boolean[][]): Buffer {
  const scale = 8;
  const canvas = createCanvas(modules[0]!.length * scale, modules.length * scale);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000000';
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) ctx.fillRect(x * scale, y * scale, scale, scale);
    });
  });
  return canvas.toBuffer('image/png');
}

const validCode = (secret: string, code: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).validate({ token: code, window: 1 }) !== null;

t.test('the QR code drawn for the terminal scans as the otpauth URI', async (t) => {
  const uri =
    'otpauth://totp/Ledger:owner%40demo.example.com?issuer=Ledger' +
    '&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30';
  const lines = terminalQr(uri, { color: false });
  t.ok(
    lines.every((line) => /^[ ▀▄█]+$/.test(line)),
    'half blocks only, no escapes without colour',
  );
  const found = await extractFile(png(modulesOf(lines)), 'image/png');
  t.same(found.qrCodes, [uri]);

  const colored = terminalQr(uri, { color: true });
  t.ok(
    colored.every((line) => line.startsWith('\x1b[30;107m') && line.endsWith('\x1b[0m')),
    'black on white on a terminal, whatever its theme',
  );
});

t.test('ledger totp and ledger demo show', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-totp-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  };
  const db = createDb(TEST_DATABASE_URL);
  t.teardown(() => db.destroy());

  const dataset = `totp-${randomBytes(4).toString('hex')}`;
  const demo = await ledger(['demo', '--dataset', dataset, '--json'], env);
  t.equal(demo.code, 0, demo.stderr);
  const info = JSON.parse(demo.stdout);

  const totp = await ledger(['totp', info.user.email, '--json'], env);
  t.equal(totp.code, 0, totp.stderr);
  const printed = JSON.parse(totp.stdout);
  t.match(printed, { email: info.user.email, code: /^\d{6}$/, valid_for_seconds: Number });
  t.ok(printed.valid_for_seconds >= 1 && printed.valid_for_seconds <= 30);
  t.ok(validCode(info.user.totp_secret, printed.code), 'the current code of the demo owner');
  const key = loadEncryptionKey(testConfig({ dataDir }));
  t.ok(await verifyCredentials(db, key, info.user.email, info.user.password, printed.code), 'and it signs in');
  const text = await ledger(['totp', info.user.email], env);
  t.match(text.stdout, /^\d{6} {2}\(/, 'text: the code first');

  const email = `person-${randomBytes(4).toString('hex')}@example.com`;
  const user = await ledger(['user', 'create', email, '--name', 'A Person', '--password-stdin'], env, {
    stdin: 'a long enough password',
  });
  t.equal(user.code, 0, user.stderr);
  const refused = await ledger(['totp', email], env);
  t.equal(refused.code, 1, 'a user not made by ledger demo, on a real database: refused');
  t.match(
    refused.stderr,
    new RegExp(`^ledger: ${email.replace(/[.]/g, '\\.')} was not made by "ledger demo".*authenticator app only\\n$`),
  );
  t.equal(refused.stdout, '', 'and no code');
  t.equal((await ledger(['totp', 'nobody@example.com'], env)).code, 1, 'an unknown user');

  const none = await ledger(['demo', 'show'], env);
  t.equal(none.code, 1, 'demo show without demo.json');
  t.match(none.stderr, /^ledger: no demo credentials in .*demo\.json: the first "npm start"/);
});

t.test('on the embedded database in the default ./data every user is a development user', async (t) => {
  // a working directory of its own, DATA_DIR unset: the embedded database in ./data
  const cwd = mkdtempSync(join(tmpdir(), 'ledger-totp-dev-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  const user = await ledger(
    ['user', 'create', 'dev@example.com', '--name', 'Developer', '--password-stdin', '--json'],
    env,
    { cwd, stdin: 'a long enough password' },
  );
  t.equal(user.code, 0, user.stderr);
  const totp = await ledger(['totp', 'dev@example.com', '--json'], env, { cwd });
  t.equal(totp.code, 0, totp.stderr);
  t.ok(validCode(JSON.parse(user.stdout).totp_secret, JSON.parse(totp.stdout).code));

  // the same files named by DATA_DIR are not the default development directory
  const elsewhere = await ledger(
    ['totp', 'dev@example.com'],
    { ...env, DATA_DIR: join(cwd, 'data') },
    { cwd: tmpdir() },
  );
  t.equal(elsewhere.code, 1, 'another data directory: refused');
});

t.test('a code signs in once: the sign-in says it was used, ledger totp prints the next one', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-totp-used-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  };
  const db = createDb(TEST_DATABASE_URL);
  t.teardown(() => db.destroy());
  const demo = await ledger(['demo', '--dataset', `totp-${randomBytes(4).toString('hex')}`, '--json'], env);
  t.equal(demo.code, 0, demo.stderr);
  const { user } = JSON.parse(demo.stdout) as { user: { email: string; password: string; totp_secret: string } };
  const key = loadEncryptionKey(testConfig({ dataDir }));
  const generator = totpFor(user.email, user.totp_secret);

  const code = generator.generate();
  t.match(await checkCredentials(db, key, user.email, user.password, code), { ok: true }, 'the code signs in');
  const again = await checkCredentials(db, key, user.email, user.password, code);
  t.match(again, { ok: false, reason: 'code_used' }, 'the same code again: used');
  t.ok(again.ok === false && again.reason === 'code_used' && again.nextCodeInSeconds >= 1, 'with when the next comes');
  t.same(
    await checkCredentials(db, key, user.email, `${user.password}x`, code),
    { ok: false, reason: 'invalid' },
    'with a wrong password the used code is not told apart',
  );

  // the current step used: ledger totp prints the next code (run again should a step end meanwhile)
  for (let attempt = 0; attempt < 3; attempt++) {
    const step = generator.counter();
    await db('users').where({ email: user.email }).update({ totp_last_step: step });
    const run = await ledger(['totp', user.email, '--json'], env);
    if (generator.counter() !== step) continue;
    t.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout);
    t.equal(printed.current_code_used, true, 'says the current code was used');
    t.equal(printed.code, generator.generate({ timestamp: (step + 1) * 30_000 }), 'prints the next code');
    t.ok(printed.valid_for_seconds > 30 && printed.valid_for_seconds <= 60, 'valid to the end of its own step');
    t.match(await checkCredentials(db, key, user.email, user.password, printed.code), { ok: true }, 'it signs in');
    const text = await ledger(['totp', user.email], env);
    if (generator.counter() !== step) continue;
    t.equal(text.code, 1, 'current and next used: nothing to print');
    t.match(
      text.stderr,
      /the current and the next code of .* were already used to sign in; the one after is accepted in \d+ s/,
    );
    break;
  }
});

t.test('the unused code from a given moment', async (t) => {
  const generator = totpFor('a@example.com', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  const now = 1_699_999_990_000; // 10 s into a step
  const step = generator.counter({ timestamp: now });
  t.same(unusedCode(generator, step - 1, now), {
    code: generator.generate({ timestamp: now }),
    next: false,
    validForSeconds: 20,
  });
  t.same(unusedCode(generator, step, now), {
    code: generator.generate({ timestamp: now + 30_000 }),
    next: true,
    validForSeconds: 50,
  });
  t.equal(unusedCode(generator, step + 1, now), undefined);
});
