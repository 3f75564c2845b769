/**
 * The MCP endpoint's per-call shortcuts (docs/benchmarks.md "Gateway") keep its behaviour:
 * the body reader's bounds and client aborts, the scope-set memo of the tool lists, the
 * modern-era shortcut before the SDK's own classification, and a JSON answer written whole
 * (Content-Length, not chunked) while a 2025-era client is still served.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import t from 'tap';
import { scopeSatisfied } from '@ledger/shared';
import { BodyTooLargeError, readBody } from '../src/mcp/body.ts';
import { claimsModernEra } from '../src/mcp/http.ts';
import { CATALOGUE, toolsForScopes } from '../src/mcp/tools/catalogue.ts';
import { toolScope } from '../src/mcp/tools/declare.ts';
import { connect, startStack } from './helpers.ts';

/** A server that hands each request to `read` and answers with what it returned (or the error's class). */
async function bodyServer(t: { teardown(fn: () => unknown): void }, read: (req: IncomingMessage) => Promise<Buffer>) {
  const outcomes: string[] = [];
  const server = createServer((req, res) => {
    read(req).then(
      (buf) => {
        outcomes.push(`ok ${buf.toString('utf8')}`);
        res.end('ok');
      },
      (err: Error) => {
        outcomes.push(`${err.constructor.name} ${err.message}`);
        res.destroy();
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { port: (server.address() as { port: number }).port, outcomes };
}

t.test('readBody: chunks joined, the size bound, a client that goes away', async (t) => {
  const { port, outcomes } = await bodyServer(t, (req) => readBody(req, 10));
  const send = (chunks: string[], opts: { abort?: boolean; length?: number } = {}) =>
    new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        headers: opts.length ? { 'content-length': String(opts.length) } : {},
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
      for (const c of chunks) req.write(c);
      if (opts.abort)
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 50);
      else req.end();
    });
  await send(['{"a":', '1}']);
  await send(['0123456789', 'x']);
  await send(['0123456789x'], { length: 11 });
  await send(['{"a":'], { abort: true, length: 8 });
  // the server sees the abort asynchronously
  for (let i = 0; outcomes.length < 4 && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
  t.same(outcomes.slice(0, 3), ['ok {"a":1}', 'BodyTooLargeError ', 'BodyTooLargeError ']);
  t.match(outcomes[3], /^Error aborted$/, 'an aborted upload rejects instead of hanging');
  t.ok(new BodyTooLargeError() instanceof Error);
});

t.test('toolsForScopes: the same list for the same scope set, equal to filtering the catalogue', async (t) => {
  for (const scopes of [['contacts:read'], ['contacts:write', 'accounting:read'], [], ['unknown:scope']]) {
    const first = toolsForScopes(scopes);
    t.equal(toolsForScopes([...scopes]), first, `${scopes.join(' ') || '(none)'}: answered from the memo`);
    t.same(
      first.map((x) => x.declaration.name),
      CATALOGUE.filter((x) => scopeSatisfied(scopes, toolScope(x.declaration))).map((x) => x.declaration.name),
    );
    t.ok(Object.isFrozen(first), 'a shared list cannot be changed by a caller');
  }
  t.ok(toolsForScopes(['contacts:read']).some((x) => x.declaration.name === 'search_vendors'));
  t.notOk(toolsForScopes(['contacts:read']).some((x) => x.declaration.name === 'create_vendor'));
});

t.test('claimsModernEra: only a single message with the envelope claim', async (t) => {
  const claim = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
  t.ok(claimsModernEra({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: claim } }));
  t.ok(
    claimsModernEra({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } },
    }),
    'an unserved revision is still the modern path',
  );
  t.notOk(claimsModernEra({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }), '2025-era call');
  t.notOk(claimsModernEra({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1 } } }));
  t.notOk(
    claimsModernEra([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: claim } }]),
    'a batch goes to the SDK',
  );
  t.notOk(claimsModernEra(null));
  t.notOk(claimsModernEra('x'));
});

t.test('a tools/call answer is one JSON body with Content-Length; 2025-era calls still work', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'read' } });
  const headers = {
    authorization: `Bearer ${tokens.access_token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'hot-path-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const modern = await fetch(resource, {
    method: 'POST',
    headers: {
      ...headers,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'search_vendors',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'a1',
      method: 'tools/call',
      params: { name: 'search_vendors', arguments: {}, _meta: meta },
    }),
  });
  t.equal(modern.status, 200);
  t.match(modern.headers.get('content-type'), /^application\/json/);
  const text = await modern.text();
  t.equal(
    modern.headers.get('content-length'),
    String(Buffer.byteLength(text)),
    'the whole answer, its length declared',
  );
  t.equal(modern.headers.get('transfer-encoding'), null, 'not chunked');
  t.match(JSON.parse(text), { jsonrpc: '2.0', id: 'a1', result: { structuredContent: { vendors: Array } } });

  const legacy = await fetch(resource, {
    method: 'POST',
    headers: { ...headers, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'search_vendors', arguments: {} },
    }),
  });
  t.equal(legacy.status, 200);
  const legacyText = await legacy.text();
  t.match(legacyText, /"id":2/);
  t.match(legacyText, /structuredContent/, 'answered by the tool (JSON or an SSE event)');
});
