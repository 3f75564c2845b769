import { amountJson, formatAmount, minorUnits, money } from '@ledger/shared';
import { withTenant } from '../../db/knex.ts';
import { addMember, createCompany, CompanyInputError, findMembership } from '../../db/companies.ts';
import { recordAudit } from '../../db/audit.ts';
import { isRole, ROLES } from '@ledger/shared';
import { CLI_ACTOR, cliActor } from '../actor.ts';
import { optional, parse, required, UsageError } from '../args.ts';
import { companyOrFail, type CliContext, userOrFail } from '../context.ts';

/** ledger company create <dataset> --name <name> [--currency CHF] [--chart kmu] [--language de|fr|it|en] */
export async function companyCreate(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(
    args,
    { name: { type: 'string' }, currency: { type: 'string' }, chart: { type: 'string' }, language: { type: 'string' } },
    ['dataset'],
  );
  const input = {
    dataset: p.positionals[0]!,
    name: required(p, 'name'),
    currency: optional(p, 'currency'),
    chart: optional(p, 'chart'),
    language: optional(p, 'language'),
  };
  const db = await ctx.db();
  const company = await createCompany(db, input).catch((err: unknown) => {
    throw err instanceof CompanyInputError && !/already exists/.test(err.message) ? new UsageError(err.message) : err;
  });
  await withTenant(db, company.id, (tx) =>
    recordAudit(tx, company.id, CLI_ACTOR, 'company', company.id, 'create', {
      dataset: company.dataset,
      name: company.name,
      currency: company.base_currency,
      chart: input.chart ?? null,
      language: input.language ?? null,
    }),
  );
  ctx.out.result(
    { id: company.id, dataset: company.dataset, name: company.name, currency: company.base_currency.trim() },
    `company "${company.dataset}" created (id ${company.id}, ${company.base_currency})`,
  );
}

const AMOUNT = /^\d{1,14}(\.\d{1,6})?$/;

/** ledger member add <dataset> <email> --role <role> [--approval-limit <amount>] */
export async function memberAdd(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, { role: { type: 'string' }, 'approval-limit': { type: 'string' } }, ['dataset', 'email']);
  const [dataset, email] = p.positionals as [string, string];
  const role = required(p, 'role');
  if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}; got "${role}"`);
  const limit = optional(p, 'approval-limit') ?? null;
  if (limit !== null && !AMOUNT.test(limit))
    throw new UsageError(`--approval-limit must be an amount like 5000 or 5000.50, got "${limit}"`);
  const db = await ctx.db();
  const company = await companyOrFail(db, dataset);
  const currency = company.base_currency.trim();
  if (limit !== null && money(limit).decimalPlaces() > minorUnits(currency)) {
    throw new UsageError(
      `--approval-limit is in ${currency}, which has ${minorUnits(currency)} decimals; got "${limit}"`,
    );
  }
  // the limit as a JSON number in the company currency, for the audit entry and --json
  const limitJson = limit === null ? null : amountJson(limit, currency);
  const user = await userOrFail(db, email);
  const existed = await findMembership(db, company.id, user.id);
  await addMember(db, company.id, user.id, role, limit).catch((err: unknown) => {
    throw err instanceof CompanyInputError ? new UsageError(err.message) : err;
  });
  await withTenant(db, company.id, (tx) =>
    recordAudit(tx, company.id, cliActor(user.id), 'membership', user.id, existed ? 'update' : 'create', {
      email: user.email,
      role,
      approval_limit: limitJson,
    }),
  );
  ctx.out.result(
    { dataset, email: user.email, user_id: user.id, role, approval_limit: limitJson },
    `${user.email} is ${role} of "${dataset}"` +
      `${limit === null ? '' : ` (approval limit ${formatAmount(limit, currency)})`}`,
  );
}
