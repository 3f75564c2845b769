import { resolve } from 'node:path';
import { decryptSecret } from '../../domain/secrets.ts';
import { secondsToNextStep, totpFor, unusedCode } from '../../db/users.ts';
import type { LedgerConfig } from '../../config.ts';
import { parse } from '../args.ts';
import { CliError, type CliContext, userOrFail } from '../context.ts';

/** The data directory of a plain `npm start` (DATA_DIR unset) on the embedded database. */
function isEmbeddedDefault(config: LedgerConfig): boolean {
  return !config.databaseUrl && resolve(config.dataDir) === resolve('./data');
}

/**
 * ledger totp <email> [--json]: the current second-factor code of a demo or development
 * user, so trying the demo needs no authenticator app. A code signs in once: when the current
 * one was already used, the next one is printed (accepted at once, as one step of clock drift)
 * with how long it holds, never a code that would be refused. Refused for anyone else: a code is
 * half of a sign-in, and on a real database only the person's own app should make it. Demo
 * users are marked when `ledger demo` makes them (users.demo); the embedded database in the
 * default ./data is a development setup whose users are all made by whoever runs it.
 */
export async function totp(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, {}, ['email']);
  const db = await ctx.db();
  const user = await userOrFail(db, p.positionals[0]!);
  if (!user.demo && !isEmbeddedDefault(ctx.config)) {
    throw new CliError(
      `${user.email} was not made by "ledger demo", and this is not the embedded development database in ` +
        `./data: its codes come from the person's authenticator app only`,
    );
  }
  const generator = totpFor(user.email, decryptSecret(user.totp_secret_enc, ctx.encryptionKey()));
  const unused = unusedCode(generator, user.totp_last_step);
  if (!unused) {
    throw new CliError(
      `the current and the next code of ${user.email} were already used to sign in; the one after is ` +
        `accepted in ${secondsToNextStep(generator)} s: run "ledger totp" again then`,
    );
  }
  const { code, next, validForSeconds } = unused;
  ctx.out.result(
    { email: user.email, code, valid_for_seconds: validForSeconds, current_code_used: next },
    next
      ? `${code}  (${user.email}; the current code was already used to sign in: this is the next one, valid for ` +
          `${validForSeconds} s, and signs in once)`
      : `${code}  (${user.email}; valid for ${validForSeconds} s more, and signs in once)`,
  );
}
