/**
 * The weight of `tools/list`: the bytes of JSON an assistant reads before its first question,
 * for a connection with every area at "Read and change" (bank: Read), in both protocol eras
 * (2026-07-28 with the `_meta` envelope, 2025-11-25 through the stateless fallback), and how
 * they divide into descriptions, input schemas, output schemas and the rest. Both services run
 * as real processes (their CLIs) on Postgres. Target: at most 60 KB per era, the budget
 * mcp-gateway/test/toolList.test.ts enforces with bank at "Read and change" too (docs/mcp.md
 * "A lean tool list"); writes bench/results/tool-list-<time>.json.
 *
 * Env: BENCH_TOOLLIST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_toollist;
 * dropped and re-created).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { recreateDatabase } from '../scripts/database.ts';
import { Browser } from '../e2e/test/support/browser.ts';
import { startStack } from '../e2e/test/support/processes.ts';
import { connectRaw } from '../e2e/test/support/rawOAuth.ts';
import { createDemo, person } from '../e2e/test/support/scenario.ts';

const DB_URL = process.env.BENCH_TOOLLIST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_toollist';
const TARGET_BYTES = 60_000;
const ERAS = ['2026-07-28', '2025-11-25'] as const;
type Era = (typeof ERAS)[number];

interface Listed {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

async function toolList(mcpUrl: string, token: string, era: Era): Promise<{ bytes: number; tools: Listed[] }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': era,
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era,
      ...(era === '2026-07-28' ? { 'mcp-method': 'tools/list' } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: era === '2026-07-28' ? { _meta: meta } : {},
    }),
  });
  const text = await res.text();
  // a 2025-era answer may come as one SSE event
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  const message = JSON.parse(json) as { result?: { tools: Listed[] }; error?: unknown };
  if (!message.result) throw new Error(`tools/list failed in ${era}: ${json.slice(0, 300)}`);
  return { bytes: Buffer.byteLength(JSON.stringify(message.result)), tools: message.result.tools };
}

const size = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));

export async function run(): Promise<void> {
  await recreateDatabase(DB_URL);
  const teardowns: (() => unknown)[] = [];
  try {
    const stack = await startStack(
      { teardown: (fn) => teardowns.push(fn) },
      {},
      { databaseUrl: DB_URL, env: { LOG_LEVEL: 'warn', NODE_ENV: 'production' } },
    );
    const demo = await createDemo(stack);
    const { tokens } = await connectRaw(
      stack.apiUrl,
      new Browser(stack.apiUrl),
      demo.mcp_url,
      person(demo),
      {
        accounting: 'write',
        invoices: 'write',
        contacts: 'write',
        bank: 'read',
        documents: 'write',
      },
      'Benchmark Assistant',
    );
    const figures: Record<string, unknown> = {};
    console.log('\ntools/list with every area at "Read and change" (bank: Read)');
    for (const era of ERAS) {
      const { bytes, tools } = await toolList(demo.mcp_url, tokens.access_token, era);
      const parts = {
        descriptions: tools.reduce((n, t) => n + size(t.description), 0),
        inputSchemas: tools.reduce((n, t) => n + size(t.inputSchema), 0),
        outputSchemas: tools.reduce((n, t) => n + size(t.outputSchema), 0),
      };
      figures[era] = { bytes, tools: tools.length, ...parts };
      console.log(
        `${era}: ${bytes} bytes for ${tools.length} tools (target ≤ ${TARGET_BYTES}) — descriptions ` +
          `${parts.descriptions}, input schemas ${parts.inputSchemas}, output schemas ${parts.outputSchemas}, ` +
          `names/titles/annotations/icons ` +
          `${bytes - parts.descriptions - parts.inputSchemas - parts.outputSchemas}`,
      );
    }
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/tool-list-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(
      file,
      `${JSON.stringify(
        { benchmark: 'tool-list', at: new Date().toISOString(), targetBytes: TARGET_BYTES, eras: figures },
        null,
        2,
      )}\n`,
    );
    console.log(`written ${file.pathname}`);
  } finally {
    for (const fn of teardowns.reverse()) await fn();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
