/**
 * What a request leaves behind in the gateway goes when the request is answered (issue 20,
 * point 9; the soak in bench/soak.ts follows the same over a minute of traffic). After
 * requests of every kind — 2026-07-28 calls on the direct path and through the SDK, 2025-era
 * calls over SSE, a batch, notifications, refused requests, a client that leaves mid-stream
 * or before the answer — every request's Node request and response, every per-request
 * McpServer the SDK was handed and every AuthInfo the endpoint keyed a request's state by can
 * be collected, and no listener was added for good to the
 * process, the HTTP server or the ledger client's connection pool. A per-request server the
 * SDK keeps in its set of open exchanges (an answer never read to its end, a transport never
 * closed) or a closure left on a long-lived emitter fails this. And the caches kept per
 * connection (its permitted endpoints, its service credential) let an entry go once it has
 * expired, instead of keeping every connection's entry until 10,000 newer ones push it out
 * (≈ 10 KB per connection that ever listed its tools). No timings are asserted: the test
 * waits for the collections and the expiries, however long they take.
 */
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { Agent } from 'undici';
import { McpServer } from '@modelcontextprotocol/server';
import { exportJWK, generateKeyPair } from 'jose';
import { SERVICE_CREDENTIAL } from '@ledger/shared';
import { LedgerClient } from '../src/ledgerClient.ts';
import { AccessCache } from '../src/mcp/access.ts';
import { connect, startStack } from './helpers.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Listener counts by event name, to compare before and after. */
function listenerCounts(emitter: EventEmitter): Record<string, number> {
  return Object.fromEntries(emitter.eventNames().map((name) => [String(name), emitter.listenerCount(name)]));
}

t.test(
  'after requests of every kind, request objects and per-request MCP servers are collected and no listener stays',
  async (t) => {
    const stack = await startStack(t);
    const company = await stack.company();
    const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'write', accounting: 'read' } });

    // every Node request/response the gateway's server sees, and every McpServer the SDK serves
    const created = { requests: 0, servers: 0, auth: 0 };
    const collected = { requests: 0, servers: 0, auth: 0 };
    const registry = new FinalizationRegistry<keyof typeof created>((kind) => collected[kind]++);
    const server = stack.gateway.server;
    const watchRequest = (req: IncomingMessage & { auth?: object }, res: ServerResponse) => {
      created.requests += 2;
      registry.register(req, 'requests');
      registry.register(res, 'requests');
      // the connection's AuthInfo of a request served by the SDK (the key of its per-request state)
      res.once('close', () => {
        if (!req.auth) return;
        created.auth++;
        registry.register(req.auth, 'auth');
      });
    };
    const originalConnect = McpServer.prototype.connect;
    McpServer.prototype.connect = function connect(this: McpServer, ...args: Parameters<McpServer['connect']>) {
      created.servers++;
      registry.register(this, 'servers');
      return originalConnect.apply(this, args);
    };
    t.teardown(() => {
      McpServer.prototype.connect = originalConnect;
    });

    const emitters = {
      process,
      server: server as EventEmitter,
      ledgerPool: stack.gateway.deps.ledger.dispatcher as unknown as EventEmitter,
    };
    const client = new Agent({ connections: 4 });
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'memory-test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    let id = 0;
    const post = (era: '2026-07-28' | '2025-11-25', body: unknown, headers: Record<string, string> = {}) =>
      fetch(resource, {
        method: 'POST',
        dispatcher: client,
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': era,
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      } as RequestInit);
    const modern = (method: string, params: Record<string, unknown> = {}, notification = false) =>
      post(
        '2026-07-28',
        { jsonrpc: '2.0', ...(notification ? {} : { id: ++id }), method, params: { ...params, _meta: envelope } },
        {
          'mcp-method': method,
          ...(typeof (params.name ?? params.uri) === 'string' ? { 'mcp-name': String(params.name ?? params.uri) } : {}),
        },
      );
    const legacy = (method: string, params: Record<string, unknown> = {}, notification = false) =>
      post('2025-11-25', { jsonrpc: '2.0', ...(notification ? {} : { id: ++id }), method, params });
    /** A 2025-era call whose client leaves: after the answer's headers (mid-stream), or right after sending. */
    const leaving = (when: 'headers' | 'sent') =>
      new Promise<void>((resolve) => {
        const req = request(resource, {
          method: 'POST',
          agent: false,
          headers: {
            authorization: `Bearer ${tokens.access_token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
        });
        req.on('response', () => {
          req.destroy();
          resolve();
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: ++id,
          method: 'tools/call',
          params: { name: 'search_vendors', arguments: { name: 'a' } },
        });
        req.end(body, () => {
          if (when === 'sent') req.destroy();
        });
      });

    /** name, request, the status it is answered with (undefined: the client leaves before it) */
    const kinds: [string, () => Promise<unknown>, number | undefined][] = [
      [
        '2026 tools/call (direct path)',
        () => modern('tools/call', { name: 'search_vendors', arguments: { name: 'a' } }),
        200,
      ],
      ['2026 tools/list (SDK)', () => modern('tools/list'), 200],
      [
        '2026 tools/call of an unknown tool (SDK)',
        () => modern('tools/call', { name: 'no_such_tool', arguments: {} }),
        200,
      ],
      ['2026 server/discover', () => modern('server/discover'), 200],
      ['2026 notification', () => modern('notifications/cancelled', { requestId: 1 }, true), 202],
      [
        '2026 resources/read',
        () => modern('resources/read', { uri: `ledger://${company.dataset}/chart/accounts` }),
        200,
      ],
      ['2025 resources/list', () => legacy('resources/list'), 200],
      [
        '2025 initialize',
        () =>
          legacy('initialize', {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'memory-test', version: '1' },
          }),
        200,
      ],
      ['2025 tools/list', () => legacy('tools/list'), 200],
      ['2025 tools/call', () => legacy('tools/call', { name: 'search_vendors', arguments: { name: 'a' } }), 200],
      [
        '2025 write tools/call',
        () => legacy('tools/call', { name: 'create_customer', arguments: { name: `Memory ${id}` } }),
        200,
      ],
      [
        '2025 batch',
        () =>
          post('2025-11-25', [
            { jsonrpc: '2.0', id: ++id, method: 'tools/list' },
            {
              jsonrpc: '2.0',
              id: ++id,
              method: 'tools/call',
              params: { name: 'search_vendors', arguments: { name: 'a' } },
            },
          ]),
        200,
      ],
      ['2025 notification', () => legacy('notifications/initialized', {}, true), 202],
      [
        'refused: no token',
        () =>
          fetch(resource, {
            method: 'POST',
            dispatcher: client,
            headers: { 'content-type': 'application/json' },
            body: '{}',
          } as RequestInit),
        401,
      ],
      [
        'refused: another Origin without a token',
        () =>
          fetch(resource, {
            method: 'POST',
            dispatcher: client,
            headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' },
            body: '{}',
          } as RequestInit),
        403,
      ],
      [
        'refused: GET',
        () =>
          fetch(resource, {
            dispatcher: client,
            headers: {
              authorization: `Bearer ${tokens.access_token}`,
              accept: 'text/event-stream',
              'mcp-protocol-version': '2025-11-25',
            },
          } as RequestInit),
        405,
      ],
      ['refused: not JSON', () => post('2025-11-25', '{"jsonrpc":'), 400],
      ['client leaves mid-stream', () => leaving('headers'), undefined],
      ['client leaves before the answer', () => leaving('sent'), undefined],
    ];
    const answered = async (send: () => Promise<unknown>): Promise<number | undefined> => {
      const res = await send();
      if (!(res instanceof Response)) return undefined;
      await res.arrayBuffer();
      return res.status;
    };
    // each kind once first, so whatever is set up once (pools, caches, compiled validators) is
    // there before counting; and each is answered as the kind means
    for (const [name, send, status] of kinds) t.equal(await answered(send), status, name);
    gc();
    const before = Object.fromEntries(Object.entries(emitters).map(([name, e]) => [name, listenerCounts(e)]));

    server.prependListener('request', watchRequest);
    const ROUNDS = 5;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, send] of kinds) {
        await answered(send).catch((err: Error) => t.fail(`${name}: ${err.message}`));
      }
    }
    server.off('request', watchRequest);
    t.ok(created.servers >= ROUNDS * 8, `the SDK served ${created.servers} per-request servers`);
    t.ok(created.requests >= ROUNDS * (kinds.length - 1) * 2, `${created.requests / 2} requests reached the server`);

    // the client's connections end, so no socket holds on to its last request
    await client.close();
    const pending = () =>
      collected.requests < created.requests || collected.servers < created.servers || collected.auth < created.auth;
    for (let i = 0; i < 300 && pending(); i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    t.equal(collected.requests, created.requests, 'every Node request and response was collected');
    t.equal(
      collected.servers,
      created.servers,
      'every per-request McpServer was collected (none stays open in the SDK)',
    );
    t.ok(created.auth > 0, `${created.auth} requests were handed to the SDK with their AuthInfo`);
    t.equal(collected.auth, created.auth, 'every AuthInfo (and the request state keyed by it) was collected');
    const after = Object.fromEntries(Object.entries(emitters).map(([name, e]) => [name, listenerCounts(e)]));
    t.same(after, before, 'no listener added for good to the process, the HTTP server or the ledger connection pool');
  },
);

t.test('per-connection caches let expired entries go (not only when 10,000 newer ones push them out)', async (t) => {
  // the permitted endpoints of a connection: asked once per ttl, gone from the heap after it
  const endpoints = Array.from({ length: 100 }, (_, i) => `GET /endpoint/${i}`);
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  const access = new AccessCache(
    { callInternal: async () => ({ status: 200, body: { role: 'owner', endpoints } }), log } as never,
    20,
  );
  // biome-ignore lint/complexity/useLiteralKeys: the bracket reaches the private field (the test reads its size)
  const cache = access['cache'];
  for (let i = 0; i < 50; i++) {
    await access.permittedEndpoints({
      id: `connection-${i}`,
      userId: 1,
      dataset: 'demo',
      scopes: ['contacts:read'],
      clientName: 'x',
    } as never);
  }
  t.equal(cache.size, 50, 'one entry per connection while fresh');
  // no access to the cache meanwhile: the entries leave by themselves (however long that takes)
  for (let i = 0; i < 1000 && cache.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(cache.size, 0, 'every expired entry left without being read again');

  // the service credentials: an entry lives as long as the credential it holds
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const ledger = new LedgerClient('http://127.0.0.1:1', {
    privateKey,
    publicJwk: await exportJWK(publicKey),
    hmacSecret: Buffer.alloc(32),
  });
  t.teardown(() => ledger.close());
  // biome-ignore lint/complexity/useLiteralKeys: the bracket reaches the private field (the test reads its size)
  const credentials = ledger['credentials'];
  const token = await ledger.serviceCredential({
    id: 'c1',
    userId: 1,
    dataset: 'demo',
    scopes: ['contacts:read'],
    clientName: 'x',
  });
  t.equal(
    await ledger.serviceCredential({
      id: 'c1',
      userId: 1,
      dataset: 'demo',
      scopes: ['contacts:read'],
      clientName: 'x',
    }),
    token,
    'reused while fresh',
  );
  t.equal(credentials.ttl, SERVICE_CREDENTIAL.maxLifetimeSeconds * 1000, 'an entry lives as long as its credential');
  t.ok(credentials.ttlAutopurge, 'and leaves the heap when it has expired');
});
