/**
 * An AI connection's life is written to the company's audit log (GET /system/audit), where
 * its owners look for what happened: connected (with the connections it replaced), and
 * ended with why — replaced by connecting the app again, or disconnected.
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { Browser, connect, startStack } from './helpers.ts';

interface AuditEntry {
  entity: string;
  action: string;
  details?: Record<string, unknown>;
  via?: unknown;
  user_id?: number | null;
}

t.test('connect, reconnect (replaces) and disconnect are audited in the ledger', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const api = apiClient(stack.ledger.url, a.dataset, a.apiKey);
  const { connections } = stack.gateway.deps;
  const browser = new Browser(stack.url);
  const first = await connect(stack, a, { browser });
  const firstId = (await connections.findToken('access', first.tokens.access_token))!.connection.id;
  const second = await connect(stack, a, { browser, choices: { invoices: 'write' } });
  const secondId = (await connections.findToken('access', second.tokens.access_token))!.connection.id;
  t.ok(await connections.end(secondId, 'disconnected_by_person'), 'the person disconnects');

  const res = await api('GET', '/system/audit?entity=ai_connection&limit=50');
  t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const entries = (res.body as AuditEntry[]).filter((e) => e.entity === 'ai_connection');
  const of = (id: string, action: string) =>
    entries.filter((e) => e.details?.connection_id === id && e.action === action);
  t.equal(of(firstId, 'connect').length, 1, 'the first connection: connected');
  t.match(
    of(firstId, 'end'),
    [{ details: { reason: 'replaced', replaced_by: secondId } }],
    'ended as replaced by the second',
  );
  t.match(of(secondId, 'connect'), [{ details: { scopes: /invoices:write/ } }], 'the second: connected with its grant');
  t.match(of(secondId, 'end'), [{ details: { reason: 'disconnected_by_person' } }], 'and ended by the person');
  t.equal(entries.length, 4, 'nothing else');
});
