import { createDemo } from '../../demo.ts';
import { DATASET_PATTERN } from '@ledger/shared';
import { findCompanyByDataset } from '../../db/companies.ts';
import { optional, parse, UsageError } from '../args.ts';
import { CliError, type CliContext } from '../context.ts';

/** ledger demo [--dataset <name>] [--json] */
export async function demo(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, { dataset: { type: 'string' } }, []);
  const dataset = optional(p, 'dataset');
  if (dataset !== undefined && !DATASET_PATTERN.test(dataset)) {
    throw new UsageError('--dataset must be 2–63 characters: lowercase letters, digits, "-" or "_", starting with a letter or digit');
  }
  const db = await ctx.db();
  if (dataset && (await findCompanyByDataset(db, dataset))) throw new CliError(`dataset "${dataset}" already exists`);
  const info = await createDemo(db, ctx.encryptionKey(), { dataset, publicUrl: ctx.config.publicUrl });
  ctx.out.result(info, demoText(info));
}

export function demoText(info: Awaited<ReturnType<typeof createDemo>>): string[] {
  return [
    `Demo company "${info.dataset}"`,
    `  REST base URL  ${info.base_url}`,
    `  MCP URL        ${info.mcp_url}`,
    `  API key        ${info.api_key}`,
    `  owner e-mail   ${info.user.email}`,
    `  password       ${info.user.password}`,
    `  TOTP secret    ${info.user.totp_secret}`,
  ];
}
