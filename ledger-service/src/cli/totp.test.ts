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
import { verifyCredentials } from '../db/users.ts';
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
