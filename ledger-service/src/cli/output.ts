/** CLI output: `--json` prints one JSON document on stdout, otherwise readable lines. */
export interface Output {
  json: boolean;
  /** prints `data` as JSON, or `text` (lines) for people */
  result(data: unknown, text: string | string[]): void;
}

export interface Streams {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export function createOutput(json: boolean, streams: Streams): Output {
  return {
    json,
    result(data, text) {
      streams.stdout(json ? `${JSON.stringify(data)}\n` : `${([] as string[]).concat(text).join('\n')}\n`);
    },
  };
}

/** Fixed-width columns for `key list` and friends. */
export function table(rows: Record<string, unknown>[], columns: string[]): string[] {
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : v instanceof Date ? v.toISOString() : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))];
}
