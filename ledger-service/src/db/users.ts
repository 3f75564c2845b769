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

/**
 * Password and TOTP code together; both are always checked so timing does not tell which failed.
 * A code is accepted once (RFC 6238 §5.2): its time step must be later than the last accepted
 * one, and recording it is one conditional UPDATE, so two concurrent sign-ins with the same
 * code cannot both pass. A wrong password does not use up the code.
 */
export async function verifyCredentials(
  db: Db,
  key: Buffer,
  email: string,
  password: string,
  code: string,
): Promise<UserRow | undefined> {
  const user = await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(
    password,
    user?.password_hash ?? 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
  if (!user?.active || !passwordOk) return undefined;
  const step = acceptedTotpStep(totpFor(user.email, decryptSecret(user.totp_secret_enc, key)), code);
  if (step === undefined) return undefined;
  const claimed = await db('users')
    .where({ id: user.id })
    .andWhere('totp_last_step', '<', step)
    .update({ totp_last_step: step }, ['id']);
  return claimed.length === 1 ? user : undefined;
}

/** The time step the code belongs to (one step of clock drift either way), or undefined. */
function acceptedTotpStep(totp: TOTP, code: string, timestamp = Date.now()): number | undefined {
  const delta = totp.validate({ token: code, timestamp, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}
