/**
 * The gateway's /metrics on its own listener (never on the public origin) and the request id
 * that joins the gateway's and the ledger's logs: kept from the caller when well-formed,
 * returned, sent on every ledger call (proxied REST, MCP tool calls, internal calls), and on
 * the gateway's log lines for the request.
 */
import { Writable } from 'node:stream';
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadConfig } from '../src/config.ts';
import { routeClass } from '../src/http/pathClass.ts';
import { createLogger } from '../src/logger.ts';
import { GatewayMetrics } from '../src/metrics.ts';
import { requestIdFrom, runWithRequestId } from '../src/requestContext.ts';
import { Browser, connect, startStack, totpCode, type Stack } from './helpers.ts';

type LedgerRequest = { url: string; requestId: string | undefined };

/** Records the path and X-Request-Id of every request the stack's ledger receives. */
function watchLedger(t: { teardown(fn: () => unknown): void }, stack: Stack): LedgerRequest[] {
  const seen: LedgerRequest[] = [];
  const server = stack.ledger.server;
  const original = server.listeners('request')[0] as (
    req: { url: string; headers: Record<string, string> },
    res: unknown,
  ) => void;
  server.removeAllListeners('request');
  server.on('request', (req: { url: string; headers: Record<string, string> }, res: unknown) => {
    seen.push({ url: req.url, requestId: req.headers['x-request-id'] });
    original(req, res);
  });
  t.teardown(() => {
    server.removeAllListeners('request');
    server.on('request', original);
  });
  return seen;
}

t.test('metrics and request ids', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'write' } });
  const ledgerSaw = watchLedger(t, stack);

  t.test('X-Request-Id: kept when well-formed, else replaced; sent to the ledger by the proxy', async (t) => {
    const kept = await fetch(`${stack.url}/client/${company.dataset}/auth/validate_api`, {
      method: 'POST',
      headers: { 'X-API-Key': company.apiKey, 'X-Request-Id': 'trace-42.a_b:c' },
    });
    await kept.body?.cancel();
    t.equal(kept.headers.get('x-request-id'), 'trace-42.a_b:c');
    t.equal(ledgerSaw.at(-1)?.requestId, 'trace-42.a_b:c', 'the ledger got the same id');
    for (const bad of ['has space', 'x'.repeat(129), 'quote"', 'semi;colon']) {
      const r = await fetch(`${stack.url}/client/${company.dataset}/auth/validate_api`, {
        method: 'POST',
        headers: { 'X-API-Key': company.apiKey, 'X-Request-Id': bad },
      });
      await r.body?.cancel();
      const id = r.headers.get('x-request-id') ?? '';
      t.not(id, bad, `${bad.slice(0, 20)}: replaced`);
      t.match(id, /^[0-9a-f-]{36}$/, 'by a UUID');
      t.equal(ledgerSaw.at(-1)?.requestId, id, "which the ledger got instead of the caller's");
    }
    t.equal(requestIdFrom('x'.repeat(128)), 'x'.repeat(128), '128 characters are fine');
    const none = await fetch(`${stack.url}/healthz`);
    t.match(none.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, 'one is made when none is sent');
  });

  t.test('an MCP tool call sends its request id on the ledger call', async (t) => {
    const client = new Client({ name: 'observability-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}`, 'X-Request-Id': 'mcp-call-7' } },
      }),
    );
    t.teardown(() => client.close());
    const before = ledgerSaw.length;
    const r = await client.callTool({ name: 'search_vendors', arguments: { name: 'a' } });
    t.equal(r.isError, undefined);
    const calls = ledgerSaw.slice(before).filter((s) => s.url.startsWith(`/client/${company.dataset}/arap/vendor`));
    t.equal(calls.length, 1, "the tool's REST call");
    t.equal(calls[0]?.requestId, 'mcp-call-7');
  });

  t.test('internal calls carry it too (sign-in verifies at the ledger)', async (t) => {
    const browser = new Browser(stack.url);
    const page = await browser.get('/signin');
    const before = ledgerSaw.length;
    const res = await browser.request(
      'POST',
      '/signin',
      { csrf: '', email: company.email, password: 'x', totp: '000000' },
      { 'X-Request-Id': 'signin-req-1' },
    );
    t.equal(res.status, 403, 'CSRF refused before the ledger is asked');
    t.equal(ledgerSaw.length, before);
    const fields = { email: company.email, password: 'wrong', totp: totpCode(company.totpSecret) };
    const failed = await browser.request(
      'POST',
      '/signin',
      { ...formCsrf(page.html), ...fields },
      { 'X-Request-Id': 'signin-req-2' },
    );
    t.equal(failed.status, 401);
    const verify = ledgerSaw.slice(before).find((s) => s.url === '/internal/auth/verify');
    t.equal(verify?.requestId, 'signin-req-2');
  });

  t.test(
    '/metrics on the metrics listener: requests by route class and status, MCP calls by tool and result, process ' +
      'metrics',
    async (t) => {
      const url = stack.gateway.metricsUrl!;
      t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, 'on loopback');
      const res = await fetch(url);
      t.equal(res.status, 200);
      t.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await res.text();
      t.match(text, /gateway_http_requests_total\{route="client",method="POST",status="200"\} [1-9]/);
      t.match(text, /gateway_http_requests_total\{route="oauth_token",method="POST",status="200"\} [1-9]/);
      t.match(
        text,
        /gateway_http_request_duration_seconds_bucket\{le="0\.1",route="client",method="POST",status="200"\} \d+/,
      );
      t.match(text, /gateway_mcp_tool_calls_total\{tool="search_vendors",result="ok"\} 1/);
      t.match(text, /process_cpu_user_seconds_total \d/);
      t.match(text, /nodejs_eventloop_lag_seconds/);
      t.notMatch(text, new RegExp(company.dataset), 'no dataset in any label');
      t.equal((await fetch(url.replace('/metrics', '/other'))).status, 404, 'nothing else on that listener');
    },
  );

  t.test(
    'the MCP endpoint (served before Koa) has the same request scope: id returned and sent on, request counted',
    async (t) => {
      const before = ledgerSaw.length;
      const call = (id: string) =>
        fetch(resource, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tokens.access_token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'search_vendors',
            'x-request-id': id,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'search_vendors',
              arguments: { name: 'a' },
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        });
      const kept = await call('mcp-raw-1');
      t.equal(kept.status, 200);
      t.equal(kept.headers.get('x-request-id'), 'mcp-raw-1', 'returned');
      await kept.text();
      t.equal(
        ledgerSaw.slice(before).find((s) => s.url.startsWith(`/client/${company.dataset}/arap/vendor`))?.requestId,
        'mcp-raw-1',
        'sent on',
      );
      const replaced = await call('not a valid id!');
      t.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, 'a malformed id is replaced');
      await replaced.text();
      const refused = await fetch(resource, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'mcp-raw-2' },
        body: '{}',
      });
      t.equal(refused.status, 401);
      t.equal(refused.headers.get('x-request-id'), 'mcp-raw-2', 'on refusals too');
      await refused.text();
      const text = await (await fetch(stack.gateway.metricsUrl!)).text();
      t.match(text, /gateway_http_requests_total\{route="mcp",method="POST",status="200"\} [1-9]/);
      t.match(text, /gateway_http_requests_total\{route="mcp",method="POST",status="401"\} [1-9]/);
    },
  );

  t.test('tool errors and refusals are counted apart', async (t) => {
    const client = new Client({ name: 'observability-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => client.close());
    const missing = await client.callTool({ name: 'get_vendor', arguments: { id: 999999 } });
    t.equal(missing.isError, true, 'a ledger 404 is a tool error');
    const refused = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'create_bill', arguments: {} },
      }),
    });
    t.equal(refused.status, 403, 'outside the granted scopes');
    await refused.body?.cancel();
    const text = await (await fetch(stack.gateway.metricsUrl!)).text();
    t.match(text, /gateway_mcp_tool_calls_total\{tool="get_vendor",result="tool_error"\} 1/);
    t.match(text, /gateway_mcp_tool_calls_total\{tool="create_bill",result="refused"\} 1/);
  });

  t.test('the public origin never serves metrics, nor forwards them to the ledger', async (t) => {
    const before = ledgerSaw.length;
    for (const path of ['/metrics', '/client/../metrics', '/client/%2e%2e/metrics', '/metrics?format=prometheus']) {
      const r = await fetch(`${stack.url}${path}`);
      t.equal(r.status, 404, `${path}: 404`);
      t.notMatch(await r.text(), /gateway_http_requests_total|process_cpu/);
    }
    t.equal(ledgerSaw.length, before, 'none reached the ledger');
  });
});

t.test('route classes are a small fixed set', async (t) => {
  t.equal(routeClass('/client/acme/arap/vendor'), 'client');
  t.equal(routeClass('/mcp/acme'), 'mcp');
  t.equal(routeClass('/oauth/token'), 'oauth_token');
  t.equal(routeClass('/management/acme/ai-connections'), 'management');
  t.equal(routeClass('/.well-known/oauth-protected-resource/mcp/acme'), 'well_known');
  t.equal(routeClass('/no/such/page-123'), 'other');
});

t.test('counts kept apart from prom-client are exact at every read, and each counted once', async (t) => {
  const metrics = new GatewayMetrics();
  const read = async () => (await metrics.registry.metrics()).split('\n').filter((l) => /^gateway_(http|mcp)/.test(l));
  metrics.observeRequest('mcp', 'POST', 200, 0.01);
  metrics.observeRequest('mcp', 'POST', 200, 0.02);
  metrics.observeRequest('mcp', 'BREW', 401, 0.01);
  metrics.toolCall('search_vendors', 'ok');
  metrics.mcpServed('direct');
  const first = await read();
  t.ok(
    first.includes('gateway_http_requests_total{route="mcp",method="POST",status="200"} 2'),
    'counted before the read',
  );
  t.ok(first.includes('gateway_http_requests_total{route="mcp",method="OTHER",status="401"} 1'));
  t.ok(first.includes('gateway_mcp_tool_calls_total{tool="search_vendors",result="ok"} 1'));
  t.ok(first.includes('gateway_mcp_requests_total{served_by="direct"} 1'));
  t.same(await read(), first, 'a second read adds nothing');
  metrics.observeRequest('mcp', 'POST', 200, 0.01);
  metrics.toolCall('search_vendors', 'ok');
  metrics.toolCall('search_vendors', 'tool_error');
  metrics.mcpServed('direct');
  const second = await read();
  t.ok(second.includes('gateway_http_requests_total{route="mcp",method="POST",status="200"} 3'));
  t.ok(second.includes('gateway_mcp_tool_calls_total{tool="search_vendors",result="ok"} 2'));
  t.ok(second.includes('gateway_mcp_tool_calls_total{tool="search_vendors",result="tool_error"} 1'));
  t.ok(second.includes('gateway_mcp_requests_total{served_by="direct"} 2'));
  // a counter read on its own (prom-client's get) is up to date as well
  metrics.mcpServed('sdk');
  t.same(
    (await metrics.mcpRequests.get()).values.map((v) => [v.labels.served_by, v.value]),
    [
      ['direct', 2],
      ['sdk', 1],
    ],
  );
});

t.test('log lines written while a request is served carry its id', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = createLogger('info', sink);
  runWithRequestId('req-abc', () => log.info({ x: 1 }, 'inside'));
  log.info('outside');
  t.equal(JSON.parse(lines[0]!).reqId, 'req-abc');
  t.equal(JSON.parse(lines[1]!).reqId, undefined);
});

t.test('GATEWAY_METRICS_PORT: default 9464, off, 0 for any free port', async (t) => {
  t.equal(loadConfig({}).metricsPort, 9464);
  t.equal(loadConfig({}).metricsHost, '127.0.0.1');
  t.equal(loadConfig({ GATEWAY_METRICS_PORT: 'off' }).metricsPort, undefined);
  t.equal(loadConfig({ GATEWAY_METRICS_PORT: '0' }).metricsPort, 0);
  t.throws(() => loadConfig({ GATEWAY_METRICS_PORT: 'many' }), /GATEWAY_METRICS_PORT/);
});

function formCsrf(html: string): Record<string, string> {
  const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
  const returnTo = /name="return_to" value="([^"]*)"/.exec(html)?.[1] ?? '';
  return { csrf, return_to: returnTo.replace(/&amp;/g, '&') };
}
