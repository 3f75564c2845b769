import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Bad command-line arguments: printed on one line, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** node:util parseArgs, strict, with `--json` everywhere; its errors become UsageErrors. */
export function parse(args: string[], options: Options, positionals: readonly string[]): Parsed {
  const parsed = (() => {
    try {
      return parseArgs({
        args,
        options: { ...options, json: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new UsageError((err as Error).message.split('\n')[0]!);
    }
  })();
  if (parsed.positionals.length < positionals.length) {
    throw new UsageError(`missing argument <${positionals[parsed.positionals.length]}>`);
  }
  if (parsed.positionals.length > positionals.length) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals.length]}"`);
  }
  return { positionals: parsed.positionals, values: parsed.values as Parsed['values'] };
}

export function required(p: Parsed, name: string): string {
  const v = p.values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function optional(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}
