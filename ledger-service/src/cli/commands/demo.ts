import { createDemo } from '../../demo.ts';
import { demoFile, demoLines, readDemoFile } from '../../demoInfo.ts';
import { DATASET_PATTERN } from '@ledger/shared';
import { findCompanyByDataset } from '../../db/companies.ts';
import { optional, parse, UsageError } from '../args.ts';
import { CliError, type CliContext } from '../context.ts';

/** ledger demo [--dataset <name>] [--json] */
export async function demo(ctx: CliContext, args: string[]): Promise<void> {
  const p = parse(args, { dataset: { type: 'string' } }, []);
  const dataset = optional(p, 'dataset');
  if (dataset !== undefined && !DATASET_PATTERN.test(dataset)) {
    throw new UsageError(
      '--dataset must be 2–63 characters: lowercase letters, digits, "-" or "_", starting with a letter or digit',
    );
  }
  const db = await ctx.db();
  if (dataset && (await findCompanyByDataset(db, dataset))) throw new CliError(`dataset "${dataset}" already exists`);
  const info = await createDemo(db, ctx.encryptionKey(), { dataset, publicUrl: ctx.config.publicUrl });
  ctx.out.result(info, demoLines(info, { color: ctx.color }));
}

/**
 * ledger demo show [--json]: the credentials the first `npm start` printed, again, from
 * <DATA_DIR>/demo.json (the password is stored only as a hash, so the file is where it is
 * kept). Reads no database, so it answers at once, also while the platform runs.
 */
export async function demoShow(ctx: CliContext, args: string[]): Promise<void> {
  parse(args, {}, []);
  const info = readDemoFile(ctx.config.dataDir);
  if (!info) {
    throw new CliError(
      `no demo credentials in ${demoFile(ctx.config.dataDir)}: the first "npm start" on an empty embedded ` +
        `database writes them; "ledger demo" makes another demo company and prints its credentials`,
    );
  }
  ctx.out.result(info, demoLines(info, { color: ctx.color }));
}
