/**
 * The MCP tool list_changes through the official MCP client on a real gateway and ledger: an
 * assistant with read scopes pages through the change feed in order, continuing from the id of
 * the last event it saw, and sees exactly the events whose resources its scopes may read — a
 * connection without Bank: Read sees no bank_transaction.* event (not even when it asks for that
 * type), one with it sees them; events of API keys and AI connections are never shown to an
 * assistant.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { importBankStatement } from './support/bankStatement.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any> };
interface Event {
  id: string;
  type: string;
  data: { resource: { type: string; id: number | string } };
}

t.test('list_changes: in order with a cursor, only what the scopes may read', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const entry = (transdate: string) =>
    rest('POST', '/gl/transactions', {
      transdate,
      pending: '0',
      lines: [
        { account: '1020', debit: 100 },
        { account: '2800', credit: 100 },
      ],
    });

  // changes of several areas, the bank's in the middle
  t.equal((await entry('2024-03-01')).status, 201);
  const customer = await rest('POST', '/arap/customer', { name: 'Globex Corp' });
  t.equal(customer.status, 201);
  const statement = await importBankStatement(rest);
  t.equal(statement.accountStatus, 201);
  t.equal(statement.importStatus, 200, JSON.stringify(statement.body));
  const invoice = await rest('POST', '/arap/invoice/customer', {
    customer_id: customer.body.id,
    invDate: '2024-03-15',
    pending: '0',
    items: [{ description: 'Consulting', quantity: 1, price: 500, account: '3400' }],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  t.equal((await entry('2024-03-20')).status, 201);

  const mcp = async (choices: Record<string, string>) => {
    const { resource, tokens } = await connect(stack, company, { choices });
    const client = new Client({ name: 'changes-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => client.close());
    const changes = async (args: Record<string, unknown>) => {
      const r = (await client.callTool({ name: 'list_changes', arguments: args })) as ToolResult;
      if (r.isError || !r.structuredContent) throw new Error(`list_changes failed: ${JSON.stringify(r)}`);
      return r.structuredContent.events as Event[];
    };
    /** every page of `limit` from `after`, each continuing from the last id of the one before, to an empty page */
    const pages = async (after: number, limit: number, type?: string) => {
      const out: Event[][] = [];
      for (let cursor = after; ; ) {
        const page = await changes({ after: cursor, limit, ...(type ? { type } : {}) });
        if (page.length === 0) return out;
        out.push(page);
        cursor = Number(page.at(-1)!.id);
      }
    };
    return { tokens, client, changes, pages };
  };
  /** the owner's feed (every event), as the REST API answers it */
  const everything = async () => (await rest('GET', '/events?limit=500')).body as Event[];
  const ids = (events: Event[]) => events.map((e) => e.id);

  t.test('without Bank: Read: the other areas in order, no bank event', async (t) => {
    const a = await mcp({ accounting: 'read', invoices: 'read', contacts: 'read', bank: 'none', documents: 'none' });
    t.equal(a.tokens.scope, 'accounting:read contacts:read invoices:read');
    const tool = (await a.client.listTools()).tools.find((x) => x.name === 'list_changes');
    t.ok(tool, 'list_changes is listed');
    t.equal(tool!.annotations?.readOnlyHint, true);
    t.ok(
      ['after', 'limit', 'type'].every((f) => f in (tool!.inputSchema.properties ?? {})),
      'cursor, page size and type filter as input',
    );

    const pages = await a.pages(0, 2);
    t.ok(
      pages.every((p) => p.length <= 2),
      'pages of the size asked for',
    );
    const seen = pages.flat();
    const all = await everything();
    t.ok(
      all.some((e) => e.type === 'bank_transaction.imported') && all.some((e) => e.type === 'ai_connection.created'),
      'the company has bank and AI-connection events',
    );
    const readable = new Set(['journal_entry', 'customer', 'vendor', 'invoice', 'bill', 'customer_payment']);
    t.same(
      ids(seen),
      ids(all.filter((e) => readable.has(e.data.resource.type))),
      "every event of the areas the scopes read, in the feed's order, none twice, none skipped",
    );
    t.same(
      [...new Set(seen.map((e) => e.type))].sort(),
      ['invoice.created', 'invoice.posted', 'journal_entry.posted', 'party.created'],
      'journal, contacts and invoices; no bank_transaction.*, api_key.* or ai_connection.* event',
    );
    t.ok(
      ids(seen).every((id, i) => i === 0 || Number(id) > Number(ids(seen)[i - 1])),
      'in increasing order',
    );
    t.same(await a.changes({ after: 0, type: 'bank_transaction.*' }), [], 'asking for bank events shows none');

    // the cursor continues: a new change after the last event seen is the only one shown
    const last = Number(seen.at(-1)!.id);
    t.same(await a.changes({ after: last }), [], 'nothing new yet');
    const later = await entry('2024-03-25');
    t.equal(later.status, 201);
    const next = await a.changes({ after: last });
    t.same(
      next.map((e) => [e.type, e.data.resource.id]),
      [['journal_entry.posted', later.body.id]],
      'the next call from the cursor shows the new entry only',
    );
  });

  t.test('with Bank: Read: the bank events too', async (t) => {
    const b = await mcp({ accounting: 'read', invoices: 'none', contacts: 'none', bank: 'read', documents: 'none' });
    t.equal(b.tokens.scope, 'accounting:read bank:read');
    const seen = (await b.pages(0, 5)).flat();
    const all = await everything();
    t.same(
      ids(seen),
      ids(all.filter((e) => ['journal_entry', 'bank_transaction'].includes(e.data.resource.type))),
      'journal and bank events in order; no invoice or contact event without their scopes',
    );
    const bank = await b.changes({ after: 0, type: 'bank_transaction.*' });
    t.equal(bank.length, 7, 'one bank_transaction.imported per imported transaction');
    t.ok(
      bank.every((e) => e.type === 'bank_transaction.imported'),
      'filtered by type',
    );
  });
});
