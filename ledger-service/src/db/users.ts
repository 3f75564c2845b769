import { Secret, TOTP } from 'otpauth';
import type { Db } from './knex.ts';
import { decryptSecret, encryptSecret, hashPassword, verifyPassword } from '../domain/secrets.ts';

export interface UserRow {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  totp_secret_enc: string;
  active: boolean;
  /** made by `ledger demo` (migration 017): `ledger totp` prints its codes */
  demo: boolean;
  /** the time step of the last code that signed in, -1 before the first */
  totp_last_step: number;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function totpFor(email: string, secretBase32: string): TOTP {
  return new TOTP({
    issuer: 'Ledger',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** Creates a user with a scrypt password and a fresh TOTP secret; returns the secret once. */
export async function createUser(db: Db, key: Buffer, input: { email: string; name: string; password: string }) {
  const email = normalizeEmail(input.email);
  const secret = new Secret({ size: 20 }).base32;
  const [row] = await db('users')
    .insert({
      email,
      name: input.name,
      password_hash: await hashPassword(input.password),
      totp_secret_enc: encryptSecret(secret, key),
    })
    .returning(['id', 'email']);
  return { id: row.id as number, email, totp_secret: secret, otpauth_uri: totpFor(email, secret).toString() };
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db('users')
    .where({ email: normalizeEmail(email) })
    .first();
}

/** What a sign-in's three factors come to. */
export type CredentialCheck =
  | { ok: true; user: UserRow }
  /** password right, the code right but of a step already used: the next code comes in `nextCodeInSeconds` */
  | { ok: false; reason: 'code_used'; nextCodeInSeconds: number }
  | { ok: false; reason: 'invalid' };

/**
 * Password and TOTP code together; both are always checked so timing does not tell which failed.
 * A code is accepted once (RFC 6238 §5.2): its time step must be later than the last accepted
 * one, and recording it is one conditional UPDATE, so two concurrent sign-ins with the same
 * code cannot both pass. A wrong password does not use up the code. Only with the right
 * password is a code that was already used told apart from a wrong one (`code_used`): the
 * person then waits for the next code instead of retyping the same one; with a wrong password
 * every refusal is `invalid`.
 */
export async function checkCredentials(
  db: Db,
  key: Buffer,
  email: string,
  password: string,
  code: string,
  now = Date.now(),
): Promise<CredentialCheck> {
  const user = await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(
    password,
    user?.password_hash ?? 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
  if (!user?.active || !passwordOk) return { ok: false, reason: 'invalid' };
  const totp = totpFor(user.email, decryptSecret(user.totp_secret_enc, key));
  const step = acceptedTotpStep(totp, code, now);
  if (step === undefined) return { ok: false, reason: 'invalid' };
  const claimed = await db('users')
    .where({ id: user.id })
    .andWhere('totp_last_step', '<', step)
    .update({ totp_last_step: step }, ['id']);
  if (claimed.length === 1) return { ok: true, user };
  return { ok: false, reason: 'code_used', nextCodeInSeconds: secondsToNextStep(totp, now) };
}

/** `checkCredentials` as the person or undefined. */
export async function verifyCredentials(
  db: Db,
  key: Buffer,
  email: string,
  password: string,
  code: string,
): Promise<UserRow | undefined> {
  const check = await checkCredentials(db, key, email, password, code);
  return check.ok ? check.user : undefined;
}

/** Seconds until the authenticator shows its next code (1 to the period). */
export function secondsToNextStep(totp: TOTP, now = Date.now()): number {
  return totp.period - (Math.floor(now / 1000) % totp.period);
}

/**
 * The code of the first time step not used yet, from now on: the current one, or the next
 * when the current one was used (a code of the next step is accepted already: one step of
 * clock drift). Undefined when that one was used too (the person signed in twice within a
 * minute): then only waiting helps.
 */
export function unusedCode(
  totp: TOTP,
  lastUsedStep: number,
  now = Date.now(),
): { code: string; next: boolean; validForSeconds: number } | undefined {
  const current = totp.counter({ timestamp: now });
  const rest = secondsToNextStep(totp, now);
  if (lastUsedStep < current) return { code: totp.generate({ timestamp: now }), next: false, validForSeconds: rest };
  if (lastUsedStep === current) {
    const code = totp.generate({ timestamp: now + totp.period * 1000 });
    return { code, next: true, validForSeconds: rest + totp.period };
  }
  return undefined;
}

/** The time step the code belongs to (one step of clock drift either way), or undefined. */
function acceptedTotpStep(totp: TOTP, code: string, timestamp: number): number | undefined {
  const delta = totp.validate({ token: code, timestamp, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}
