import { createUser, findUserByEmail } from '../../db/users.ts';
import { parse, required, UsageError } from '../args.ts';
import { CliError, type CliContext } from '../context.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIN_PASSWORD = 10;

/** ledger user create <email> --name <name> --password-stdin */
export async function userCreate(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, { name: { type: 'string' }, 'password-stdin': { type: 'boolean' } }, ['email']);
  const email = p.positionals[0]!;
  const name = required(p, 'name');
  if (!EMAIL.test(email)) throw new UsageError(`"${email}" is not an e-mail address`);
  if (!p.values['password-stdin'])
    throw new UsageError('--password-stdin is required: pipe the password on standard input');
  const password = (await ctx.readStdin()).replace(/\r?\n$/, '');
  if (password.length < MIN_PASSWORD)
    throw new UsageError(`the password must have at least ${MIN_PASSWORD} characters`);
  const db = await ctx.db();
  if (await findUserByEmail(db, email)) throw new CliError(`user "${email}" already exists`);
  const user = await createUser(db, ctx.encryptionKey(), { email, name, password });
  ctx.out.result({ id: user.id, email: user.email, totp_secret: user.totp_secret, otpauth_uri: user.otpauth_uri }, [
    `user ${user.email} created (id ${user.id})`,
    `TOTP secret: ${user.totp_secret}`,
    `otpauth URI: ${user.otpauth_uri}`,
    'Add the secret to an authenticator app now; it is not shown again.',
  ]);
}
