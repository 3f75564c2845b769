/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, a dev dependency;
 * its CLI runs from node_modules/.bin and talks only to the URL it is given) against a real gateway
 * and ledger, every server scenario it has (`--suite all`).
 *
 * The suite's client sends no Authorization header and cannot be given one, while the endpoint
 * answers 401 to a request without a token. So the suite talks to a small loopback proxy in this
 * test that adds `Authorization: Bearer <token>` of a connection with every area at "Read and change"
 * (bank: Read) and forwards everything else unchanged, the Host header included, streaming the
 * answers (SSE) as they come. dns-rebinding-protection runs through it too: its foreign Host is
 * refused although the request carries a valid token, and its own Host (127.0.0.1, the public host)
 * with a token is accepted. Without the proxy that second check would get the 401 of a request
 * without a token.
 *
 * The scenarios that apply to the ledger's server must pass every check. The others test the
 * suite's own fixture tools and resources, capabilities the server does not declare, or SSE
 * resumption that a stateless server does not offer; they are listed with the reason in
 * conformance.expected-failures.yaml, which the suite checks as its baseline (a listed scenario
 * that passes fails the run as well), and this test checks that each fails only for that reason.
 *
 * Suite 0.1.13 speaks the 2025 era (served through the SDK's stateless fallback): its client
 * negotiates 2025-11-25, and its SSE scenarios send their requests as 2025-03-26. The 2026-07-28 era
 * is tested with the official SDK v2 client in mcp.test.ts and the tests beside it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connect, startStack } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'node_modules/.bin/conformance');
const BASELINE = fileURLToPath(new URL('./conformance.expected-failures.yaml', import.meta.url));

const WRITE_ALL = { accounting: 'write', invoices: 'write', contacts: 'write', bank: 'write', documents: 'write' };

/** The scenarios that apply to a server like the ledger's: each must run and pass every check. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

/** Why a scenario of the baseline fails: each of its checks other than SUCCESS and INFO matches one. */
const NOT_APPLICABLE: { why: string; message: RegExp }[] = [
  { why: "a tool of the suite's", message: /^Failed: MCP error -32602: Tool test_\w+ not found$/ },
  { why: "a tool of the suite's", message: /^Tool 'json_schema_2020_12_tool' not found\./ },
  { why: "a resource of the suite's", message: /^Failed: MCP error -32602: Resource not found: test:\/\// },
  { why: 'a capability the server does not declare', message: /^Failed: MCP error -32601: Method not found$/ },
  {
    why: 'SSE resumption, which a stateless server does not offer',
    message: /^Server did not (provide session ID|send priming event|send retry field)/,
  },
];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
  details?: { message?: string };
}

/** Runs the suite's CLI; resolves its exit code and output (without colours). */
function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // the CLI is a plain Node program: none of the test runner's loaders
    const { NODE_OPTIONS: _, ...env } = process.env;
    const child = spawn(CLI, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output: stripVTControlCharacters(output) }));
  });
}

/**
 * A loopback proxy to `target` that adds the Bearer token and forwards everything else as it is;
 * `versions` collects the Mcp-Protocol-Version headers the suite's client sent.
 */
async function authorizingProxy(
  t: { teardown(fn: () => unknown): void },
  target: URL,
  token: string,
  versions: Set<string>,
): Promise<string> {
  const server = createServer((req, res) => {
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string') versions.add(version);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test('the MCP conformance suite against the ledger MCP server', async (t) => {
  // the suite sends a few hundred requests in seconds on one connection; the rate limit is tested in limits.test.ts
  const stack = await startStack(t, { MCP_RATE_LIMIT: '100000' });
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: WRITE_ALL });
  const versions = new Set<string>();
  const proxy = await authorizingProxy(t, new URL(resource), tokens.access_token, versions);
  const url = `${proxy}${new URL(resource).pathname}`;

  // what the server declares in the era the suite speaks: no logging, completions, prompts or subscriptions
  const client = new Client({ name: 'conformance-test', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  const capabilities = client.getServerCapabilities();
  await client.close();
  t.ok(capabilities?.tools && capabilities.resources, 'tools and resources declared');
  t.notOk(capabilities?.logging, 'no logging');
  t.notOk(capabilities?.completions, 'no completions');
  t.notOk(capabilities?.prompts, 'no prompts');
  t.notOk(capabilities?.resources?.subscribe, 'no resource subscriptions');

  const list = await conformance(['list', '--server']);
  t.equal(list.code, 0, list.output);
  const scenarios = [...list.output.matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1]!);
  t.ok(scenarios.length >= 30, `${scenarios.length} server scenarios`);
  for (const name of APPLICABLE) t.ok(scenarios.includes(name), `${name} is a scenario of the suite`);

  const out = mkdtempSync(join(tmpdir(), 'conformance-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const run = await conformance(['server', '--url', url, '--suite', 'all', '--expected-failures', BASELINE, '-o', out]);
  t.equal(run.code, 0, 'the suite passes against its baseline');
  t.match(run.output, /Baseline check passed: all failures are expected\./, run.output.slice(-3000));

  // the checks of each scenario, from the directories the suite wrote (server-<scenario>-<time>)
  const results = new Map<string, Check[]>();
  for (const dir of readdirSync(out)) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1];
    if (name) results.set(name, JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  t.same([...results.keys()].sort(), [...scenarios].sort(), 'every scenario ran once');

  for (const name of APPLICABLE) {
    const checks = results.get(name) ?? [];
    t.ok(checks.length > 0, `${name}: checks ran`);
    for (const check of checks) t.equal(check.status, 'SUCCESS', `${name} ${check.id}: ${check.errorMessage ?? ''}`);
  }
  for (const [name, checks] of results) {
    if (APPLICABLE.includes(name)) continue;
    const findings = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
    t.ok(findings.length > 0, `${name}: does not apply, so it fails (else it belongs to the applicable scenarios)`);
    for (const check of findings) {
      const message = check.errorMessage ?? check.details?.message ?? '';
      const reason = NOT_APPLICABLE.find((r) => r.message.test(message));
      t.ok(reason, `${name} ${check.id}: ${reason?.why ?? `unexplained: ${check.status} ${message}`}`);
    }
  }

  t.same([...versions].sort(), ['2025-03-26', '2025-11-25'], 'the suite spoke protocols 2025-11-25 and 2025-03-26');
});
