/**
 * Tokens are bound to the MCP URL (the OAuth resource, RFC 8707) they were issued for: a
 * token of company A at company B's MCP URL is refused as an invalid token (401
 * `invalid_token` with B's challenge, docs/mcp.md), also when the person is owner of both
 * companies, so that nothing but the binding can be what refuses it. The refusal does not
 * end the connection: it keeps working at A.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { addMember } from '../../ledger-service/src/db/companies.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { connect, startStack } from './helpers.ts';

const ALL_READ = { accounting: 'read', invoices: 'read', contacts: 'read', bank: 'read', documents: 'read' };

function post(url: string, token: string, message: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(message),
  });
}

async function mcpClient(url: string, token: string) {
  const client = new Client({ name: 'resource-binding-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

t.test("a token of company A at company B's MCP URL is refused like an invalid token", async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const b = await stack.company();
  await addMember(stack.ledger.db, b.company.id, a.userId, 'owner', null);
  const vendorOfB = await apiClient(stack.url, b.dataset, b.apiKey)('POST', '/arap/vendor', { name: 'Only B AG' });
  t.equal(vendorOfB.status, 201, 'B has data a leak would show');
  const { resource, tokens } = await connect(stack, a, { choices: ALL_READ });
  const atB = `${stack.url}/mcp/${b.dataset}`;

  const requests = [
    {
      label: 'initialize',
      message: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
    },
    {
      label: 'tools/call',
      message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_vendors', arguments: {} } },
    },
  ];
  for (const r of requests) {
    const res = await post(atB, tokens.access_token, r.message);
    t.equal(res.status, 401, `${r.label}: 401`);
    const challenge = res.headers.get('www-authenticate') ?? '';
    t.match(challenge, /^Bearer error="invalid_token"/, `${r.label}: invalid_token`);
    t.match(
      challenge,
      `resource_metadata="${stack.url}/.well-known/oauth-protected-resource/mcp/${b.dataset}"`,
      `${r.label}: B's resource metadata, to connect to B`,
    );
    const body = await res.text();
    t.match(
      JSON.parse(body),
      { error: 'invalid_token', error_description: /another MCP server URL/ },
      `${r.label}: the reason`,
    );
    t.notMatch(body, /Only B AG/, `${r.label}: nothing of B`);
  }

  await t.rejects(mcpClient(atB, tokens.access_token), "the official client cannot connect to B with A's token");

  const atA = await mcpClient(resource, tokens.access_token);
  t.teardown(() => atA.close());
  t.ok((await atA.listTools()).tools.length > 0, 'the connection still works at A');
  const active = await stack.gateway.deps.connections.listForUser(a.userId);
  t.same(
    active.map((c) => c.dataset),
    [a.dataset],
    'and is still active',
  );
});
