import { withTenant } from '../../db/knex.ts';
import { findMembership } from '../../db/companies.ts';
import { createApiKey, deleteApiKey, listApiKeys } from '../../db/apiKeys.ts';
import { recordAudit } from '../../db/audit.ts';
import { cliActor, CLI_ACTOR } from '../actor.ts';
import { parse, required, UsageError } from '../args.ts';
import { CliError, companyOrFail, type CliContext, userOrFail } from '../context.ts';
import { table } from '../output.ts';

/** ledger key create <dataset> --user <email> --label <label>: prints the key once */
export async function keyCreate(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, { user: { type: 'string' }, label: { type: 'string' } }, ['dataset']);
  const email = required(p, 'user');
  const label = required(p, 'label');
  if (label.length > 100) throw new UsageError('--label must have at most 100 characters');
  const db = await ctx.db();
  const company = await companyOrFail(db, p.positionals[0]!);
  const user = await userOrFail(db, email);
  if (!(await findMembership(db, company.id, user.id))) {
    throw new CliError(
      `${user.email} is not a member of "${company.dataset}"; add them with "ledger member add" first`,
    );
  }
  const key = await createApiKey(db, company.id, user.id, label);
  await withTenant(db, company.id, (tx) =>
    recordAudit(tx, company.id, cliActor(user.id), 'api_key', key.id, 'create', { label }),
  );
  ctx.out.result(
    { id: key.id, label: key.label, prefix: key.prefix, user: user.email, created_at: key.created_at, key: key.key },
    [
      `API key ${key.id} "${key.label}" for ${user.email} in "${company.dataset}":`,
      key.key,
      'It is shown only now; store it safely.',
    ],
  );
}

/** ledger key list <dataset> */
export async function keyList(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, {}, ['dataset']);
  const db = await ctx.db();
  const company = await companyOrFail(db, p.positionals[0]!);
  const keys = await listApiKeys(db, company.id);
  ctx.out.result(
    keys,
    keys.length
      ? table(keys as unknown as Record<string, unknown>[], [
          'id',
          'label',
          'prefix',
          'user',
          'created_at',
          'last_used_at',
        ])
      : 'no API keys',
  );
}

/** ledger key delete <dataset> <id> */
export async function keyDelete(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, {}, ['dataset', 'id']);
  const raw = p.positionals[1]!;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new UsageError(`<id> must be a key id (a positive integer), got "${raw}"`);
  const id = Number(raw);
  const db = await ctx.db();
  const company = await companyOrFail(db, p.positionals[0]!);
  if (!(await deleteApiKey(db, company.id, id))) throw new CliError(`no API key ${id} in "${company.dataset}"`);
  await withTenant(db, company.id, (tx) => recordAudit(tx, company.id, CLI_ACTOR, 'api_key', id, 'delete'));
  ctx.out.result({ id, deleted: true }, `API key ${id} deleted; it stops working immediately`);
}
