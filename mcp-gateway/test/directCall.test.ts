/**
 * The hot path for single 2026-07-28 tools/calls (src/mcp/directCall.ts) answers exactly what
 * the SDK answers: the same requests go to a gateway with the path and to a replica without it
 * (every request through the SDK), and the answers must be equal. Requests the path must leave
 * to the SDK are recognised one condition at a time, and the gateway's metrics show which
 * path served what.
 */
import type { IncomingMessage } from 'node:http';
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { isJsonContentType, type CallToolResult } from '@modelcontextprotocol/server';
import { checkedOutput, directCallOf, encodeCallAnswer } from '../src/mcp/directCall.ts';
import { toolsForScopes } from '../src/mcp/tools/catalogue.ts';
import { toolError, toolSuccess } from '../src/mcp/tools/result.ts';
import { serverInfo as gatewayServerInfo } from '../src/mcp/server.ts';
import { connect, startReplica, startStack } from './helpers.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Call {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A tools/call as the v2 client sends it. */
function toolCall(name: string, args: Record<string, unknown>, id: string | number = 1): Call {
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: ENVELOPE } },
  };
}

const fakeRequest = (c: Call, method = 'POST') => ({ method, headers: c.headers }) as unknown as IncomingMessage;
const contactTools = toolsForScopes(['contacts:read']);

t.test('directCallOf: the canonical call is taken, every unusual part is left to the SDK', async (t) => {
  const call = await directCallOf(
    fakeRequest(toolCall('search_vendors', { name: 'Pap' })),
    toolCall('search_vendors', { name: 'Pap' }).body,
    contactTools,
  );
  t.equal(call?.tool.declaration.name, 'search_vendors');
  t.same(call?.args, { name: 'Pap' });
  t.equal(call?.id, 1);

  const variants: [string, (c: Call) => void][] = [
    ['a GET', () => undefined],
    [
      'another content type',
      (c) => {
        c.headers['content-type'] = 'text/plain';
      },
    ],
    [
      'an Accept without event streams',
      (c) => {
        c.headers.accept = 'application/json';
      },
    ],
    [
      'a protocol header that disagrees',
      (c) => {
        c.headers['mcp-protocol-version'] = '2025-11-25';
      },
    ],
    [
      'no Mcp-Method header',
      (c) => {
        delete c.headers['mcp-method'];
      },
    ],
    [
      'an Mcp-Name header naming another tool',
      (c) => {
        c.headers['mcp-name'] = 'get_vendor';
      },
    ],
    [
      'another JSON-RPC version',
      (c) => {
        c.body.jsonrpc = '1.0';
      },
    ],
    [
      'a null id',
      (c) => {
        c.body.id = null;
      },
    ],
    [
      'a fractional id',
      (c) => {
        c.body.id = 1.5;
      },
    ],
    [
      'another method',
      (c) => {
        c.body.method = 'tools/list';
      },
    ],
    [
      'an extra member',
      (c) => {
        c.body.extra = true;
      },
    ],
    [
      'an extra parameter',
      (c) => {
        (c.body.params as Record<string, unknown>).task = {};
      },
    ],
    [
      'arguments that are not an object',
      (c) => {
        (c.body.params as Record<string, unknown>).arguments = ['x'];
      },
    ],
    [
      'no envelope',
      (c) => {
        delete (c.body.params as Record<string, unknown>)._meta;
      },
    ],
    [
      'a progress token',
      (c) => {
        (c.body.params as Record<string, Record<string, unknown>>)._meta = { ...ENVELOPE, progressToken: 1 };
      },
    ],
    [
      'a 2025-era claim',
      (c) => {
        (c.body.params as Record<string, Record<string, unknown>>)._meta = {
          ...ENVELOPE,
          'io.modelcontextprotocol/protocolVersion': '2025-11-25',
        };
      },
    ],
    [
      'client info with more fields',
      (c) => {
        (c.body.params as Record<string, Record<string, unknown>>)._meta = {
          ...ENVELOPE,
          'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1', icons: [] },
        };
      },
    ],
    [
      'no client info',
      (c) => {
        const meta: Record<string, unknown> = { ...ENVELOPE };
        delete meta['io.modelcontextprotocol/clientInfo'];
        (c.body.params as Record<string, unknown>)._meta = meta;
      },
    ],
    [
      'capabilities that are not objects',
      (c) => {
        (c.body.params as Record<string, Record<string, unknown>>)._meta = {
          ...ENVELOPE,
          'io.modelcontextprotocol/clientCapabilities': { sampling: true },
        };
      },
    ],
    [
      'arguments the input schema refuses',
      (c) => {
        (c.body.params as Record<string, unknown>).arguments = { name: 5 };
      },
    ],
  ];
  for (const [label, change] of variants) {
    const c = toolCall('search_vendors', { name: 'Pap' });
    change(c);
    t.equal(
      await directCallOf(fakeRequest(c, label === 'a GET' ? 'GET' : 'POST'), c.body, contactTools),
      undefined,
      `${label}: left to the SDK`,
    );
  }
  const other = toolCall('create_vendor', { name: 'X' });
  t.equal(
    await directCallOf(fakeRequest(other), other.body, contactTools),
    undefined,
    'a tool this request may not use: left to the SDK',
  );
});

t.test(
  'checkedOutput: a result against the output schema becomes the SDK tool error; errors pass as they are',
  async (t) => {
    const tool = contactTools.find((x) => x.declaration.name === 'search_vendors')!;
    const wrong = await checkedOutput(tool, {
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { vendors: 'none' },
    });
    t.equal(wrong.isError, true);
    t.match(
      (wrong.content[0] as { text: string }).text,
      /^Output validation error: Invalid structured content for tool search_vendors: /,
    );
    const missing = await checkedOutput(tool, { content: [{ type: 'text', text: 'x' }] });
    t.equal(
      (missing.content[0] as { text: string }).text,
      'Output validation error: Tool search_vendors has an output schema but no structured content was provided',
    );
    const refused: CallToolResult = { content: [{ type: 'text', text: 'no' }], isError: true };
    t.equal(await checkedOutput(tool, refused), refused);
    t.same(JSON.parse(encodeCallAnswer('a', refused, { name: 's', version: '1' })), {
      jsonrpc: '2.0',
      id: 'a',
      result: {
        ...refused,
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
      },
    });
  },
);

t.test('the same requests get the same answers with and without the hot path', async (t) => {
  const stack = await startStack(t);
  const viaSdk = await startReplica(t, stack, {}, { mcpDirectCalls: false });
  const company = await stack.company();
  const { tokens } = await connect(stack, company, { choices: { contacts: 'write', accounting: 'read' } });
  const path = `/mcp/${company.dataset}`;
  const send = async (base: string, c: Call) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...c.headers, authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify(c.body),
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: text.startsWith('{') ? JSON.parse(text) : text,
    };
  };
  const served = async () =>
    Object.fromEntries(
      (await stack.gateway.deps.metrics.mcpRequests.get()).values.map((v) => [v.labels.served_by, v.value]),
    );

  // a vendor to find, written through the SDK replica
  const created = await send(
    viaSdk.url,
    toolCall('create_vendor', { name: 'Papeterie Gleich AG', email: 'a@gleich.example' }, 'setup'),
  );
  t.equal(created.status, 200);
  t.notOk(created.body.result?.isError, 'the vendor was created');

  const direct: Call[] = [
    toolCall('search_vendors', { name: 'Papeterie' }),
    toolCall('search_vendors', { name: 'nobody by this name' }, 'string-id'),
    toolCall('get_vendor', { id: 999999 }, 7),
    toolCall('get_chart_of_accounts', {}, 8),
  ];
  const sdk: Call[] = [
    toolCall('search_vendors', { name: 42 }, 9),
    toolCall('no_such_tool', {}, 10),
    (() => {
      const c = toolCall('search_vendors', { name: 'Papeterie' }, 12);
      delete c.headers['mcp-name'];
      return c;
    })(),
    (() => {
      const c = toolCall('search_vendors', { name: 'Papeterie' }, 13);
      c.headers['mcp-name'] = 'get_vendor';
      return c;
    })(),
  ];
  // refused by the endpoint's own scope check before either path: counted by neither
  const refusedEarlier: Call[] = [toolCall('create_invoice', { customer_id: 1 }, 11)];
  const before = await served();
  for (const c of [...direct, ...sdk, ...refusedEarlier]) {
    const label = `${String(c.body.id)} ${JSON.stringify(c.body.params)} ${c.headers['mcp-name'] ?? '(no Mcp-Name)'}`;
    const [mine, theirs] = [await send(stack.url, c), await send(viaSdk.url, c)];
    t.same(mine, theirs, `${label}: same status, content type and answer`);
  }
  const found = (await send(stack.url, direct[0]!)).body;
  t.equal(
    found.result.structuredContent.vendors[0].name,
    'Papeterie Gleich AG',
    'the direct answer carries the ledger answer',
  );
  const after = await served();
  t.equal((after.direct ?? 0) - (before.direct ?? 0), direct.length + 1, 'the canonical calls were answered directly');
  t.equal((after.sdk ?? 0) - (before.sdk ?? 0), sdk.length, 'the others went through the SDK');
});

t.test('the official client: its 2026-07-28 tools/calls take the direct path, its 2025-era ones the SDK', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'write' } });
  const served = async () =>
    Object.fromEntries(
      (await stack.gateway.deps.metrics.mcpRequests.get()).values.map((v) => [v.labels.served_by, v.value]),
    );
  for (const mode of ['auto', 'legacy'] as const) {
    const client = new Client({ name: 'direct-test', version: '1' }, { versionNegotiation: { mode } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => client.close());
    const before = await served();
    const created = (await client.callTool({ name: 'create_vendor', arguments: { name: `Direct ${mode} AG` } })) as {
      isError?: boolean;
      structuredContent?: { id: number };
    };
    t.notOk(created.isError, `${mode}: create_vendor`);
    const found = (await client.callTool({ name: 'search_vendors', arguments: { name: `Direct ${mode}` } })) as {
      structuredContent?: { vendors: { id: number }[] };
    };
    t.same(
      found.structuredContent?.vendors.map((v) => v.id),
      [created.structuredContent?.id],
      `${mode}: search_vendors finds it`,
    );
    const after = await served();
    const direct = (after.direct ?? 0) - (before.direct ?? 0);
    if (mode === 'auto') t.equal(direct, 2, 'both calls of the 2026-07-28 client were answered directly');
    else t.equal(direct, 0, 'a 2025-era client is served by the SDK');
  }
});

t.test('directCallOf: Content-Type and Accept judged as before, on every call with the same header', async (t) => {
  const contentTypes = [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset="utf-8"',
    'application/jsonx',
    'text/plain',
    'application/json; =broken',
    '',
  ];
  const accepts = [
    'application/json, text/event-stream',
    'TEXT/EVENT-STREAM, APPLICATION/JSON',
    'application/json',
    'text/event-stream',
    '*/*',
    '',
  ];
  for (let round = 0; round < 2; round++) {
    for (const type of contentTypes) {
      for (const accept of accepts) {
        const c = toolCall('search_vendors', { name: 'Pap' });
        c.headers['content-type'] = type;
        c.headers.accept = accept;
        const expected =
          isJsonContentType(type) &&
          accept.toLowerCase().includes('application/json') &&
          accept.toLowerCase().includes('text/event-stream');
        const call = await directCallOf(fakeRequest(c), c.body, contactTools);
        t.equal(call !== undefined, expected, `round ${round}: ${JSON.stringify(type)}, ${JSON.stringify(accept)}`);
      }
    }
  }
  const without = toolCall('search_vendors', { name: 'Pap' });
  delete without.headers['content-type'];
  t.equal(await directCallOf(fakeRequest(without), without.body, contactTools), undefined, 'no Content-Type');
});

t.test(
  "encodeCallAnswer: the bytes JSON.stringify writes of the codec's answer, structuredContent from its text",
  async (t) => {
    const plainInfo = { name: 'ledger-mcp', version: '1.0.0' };
    // the gateway's own identity is frozen (icons and all), and its JSON is then written from a copy made once
    const gatewayInfo = gatewayServerInfo('https://gateway.example');
    t.ok(Object.isFrozen(gatewayInfo) && Object.isFrozen(gatewayInfo.icons?.[0]), 'the identity cannot change');
    const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
    // the 2026-07-28 codec's answer object, serialised in one go
    const codec = (id: string | number, result: CallToolResult, serverInfo: object) => {
      const meta = (result._meta ?? {}) as Record<string, unknown>;
      return JSON.stringify({
        result: {
          ...result,
          resultType: 'complete',
          _meta: { ...meta, [SERVER_INFO]: meta[SERVER_INFO] ?? serverInfo },
        },
        jsonrpc: '2.0',
        id,
      });
    };
    const tool = { listKey: 'vendors', summary: () => '2 vendors, "quoted"\n' };
    const results: [string, CallToolResult][] = [
      ['a list', toolSuccess(tool, {}, [{ id: 1, name: 'Pap"eterie \u2028', 2: 'x', gone: undefined }, { id: 2 }])],
      ['an object', toolSuccess(tool, {}, { total: 1.5, lines: [1, 2] })],
      ['nothing', toolSuccess(tool, {}, null)],
      ['an error', toolError({ code: 'x', message: 'y', field: 'f' })],
      ['with _meta', { content: [], _meta: { k: 1 }, isError: false }],
      [
        'its own resultType and server info',
        {
          resultType: 'other',
          content: [{ type: 'text', text: 't' }],
          _meta: { [SERVER_INFO]: { name: 'n', version: '2' } },
        },
      ],
    ];
    for (const serverInfo of [plainInfo, gatewayInfo, gatewayInfo])
      for (const [label, result] of results)
        for (const id of [1, 'a"b', 0])
          t.equal(
            encodeCallAnswer(id, result, serverInfo),
            codec(id, result, serverInfo),
            `${serverInfo.name}: ${label}, id ${JSON.stringify(id)}`,
          );
    // a structuredContent replaced after the result was made is written as it is now
    const replaced = toolSuccess(tool, {}, { a: 1 });
    const changed = { ...replaced, structuredContent: { a: 2 } };
    t.equal(encodeCallAnswer(1, changed, plainInfo), codec(1, changed, plainInfo));
    // the identity of another public URL is its own
    const other = gatewayServerInfo('https://other.example');
    t.equal(encodeCallAnswer(1, replaced, other), codec(1, replaced, other));
    t.not(encodeCallAnswer(1, replaced, other), encodeCallAnswer(1, replaced, gatewayInfo));
  },
);
