import { ConfigError, loadConfig } from '../config.ts';
import { CompanyInputError } from '../db/companies.ts';
import { UsageError } from './args.ts';
import { createContext, CliError, type CliContext } from './context.ts';
import { createOutput, type Streams } from './output.ts';

type Command = (ctx: CliContext, args: string[]) => Promise<void>;

/**
 * Commands by their words, each loaded when it runs: `ledger key list` reads the code of the
 * key commands, not the HTTP server's or the demo's.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  migrate: async () => (await import('./commands/server.ts')).migrate,
  serve: async () => (await import('./commands/server.ts')).serve,
  'company create': async () => (await import('./commands/company.ts')).companyCreate,
  'user create': async () => (await import('./commands/user.ts')).userCreate,
  'member add': async () => (await import('./commands/company.ts')).memberAdd,
  'key create': async () => (await import('./commands/key.ts')).keyCreate,
  'key list': async () => (await import('./commands/key.ts')).keyList,
  'key delete': async () => (await import('./commands/key.ts')).keyDelete,
  demo: async () => (await import('./commands/demo.ts')).demo,
  'demo show': async () => (await import('./commands/demo.ts')).demoShow,
  totp: async () => (await import('./commands/totp.ts')).totp,
};

export const USAGE = `usage: ledger <command> [--json]
  migrate
  serve
  company create <dataset> --name <name> [--currency CHF] [--chart kmu] [--language de|fr|it|en]
  user create <email> --name <name> --password-stdin
  member add <dataset> <email> --role <owner|admin|accountant|clerk|viewer> [--approval-limit <amount>]
  key create <dataset> --user <email> --label <label>
  key list <dataset>
  key delete <dataset> <id>
  demo [--dataset <name>]
  demo show
  totp <email>
Configuration comes from the environment (DATABASE_URL, PUBLIC_URL, ...); see docs/operations.md.`;

function findCommand(argv: string[]): { command: () => Promise<Command>; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (COMMANDS[name]) return { command: COMMANDS[name]!, rest: argv.slice(words) };
  }
  return undefined;
}

export interface CliIo extends Streams {
  env: NodeJS.ProcessEnv;
  readStdin(): Promise<string>;
  /** standard output takes ANSI colours (a terminal) */
  color?: boolean;
}

/**
 * Runs one command; returns the exit code: 0 done, 1 the command could not be carried
 * out, 2 bad arguments or configuration. Errors are one line on stderr (JSON with --json).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (code: 'usage' | 'config' | 'failed', message: string, exit: number) => {
    const line = message.replace(/\s*\n\s*/g, ' ');
    io.stderr(json ? `${JSON.stringify({ error: { code, message: line } })}\n` : `ledger: ${line}\n`);
    return exit;
  };
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help' || argv[0] === '-h') {
    io.stdout(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found)
    return fail(
      'usage',
      `unknown command "${argv
        .filter((a) => !a.startsWith('-'))
        .slice(0, 2)
        .join(' ')}"; run "ledger --help"`,
      2,
    );

  let ctx: CliContext | undefined;
  try {
    const config = loadConfig(io.env);
    ctx = createContext(config, createOutput(json, io), io.readStdin, io.color ?? false);
    const command = await found.command();
    await command(ctx, found.rest);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) return fail('usage', err.message, 2);
    if (err instanceof ConfigError) return fail('config', err.message, 2);
    if (err instanceof CliError || err instanceof CompanyInputError) return fail('failed', err.message, 1);
    return fail('failed', (err as Error).message || String(err), 1);
  } finally {
    await ctx?.close();
  }
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Entry point of bin/ledger.mjs. */
export async function main(argv: string[]): Promise<number> {
  return runCli(argv, {
    env: process.env,
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readStdin: () => readAll(process.stdin),
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  });
}
