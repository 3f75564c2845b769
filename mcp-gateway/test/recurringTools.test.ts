/**
 * The recurring-invoice tools (list_recurring_invoices, create_recurring_invoice,
 * pause_recurring_invoice) in a real gateway on a real ledger, called with the official MCP
 * client: creating one asks the person first (it posts invoices later), then it is listed and paused.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text: string }[];
};

t.test('recurring-invoice tools through the gateway', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const customer = await rest('POST', '/arap/customer', { name: 'Globex', language: 'de' });
  t.equal(customer.status, 201, JSON.stringify(customer.body));

  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'read', invoices: 'write', contacts: 'none', bank: 'none', documents: 'none' },
  });
  const client = new Client({ name: 'recurring-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  const listed = (await client.listTools()).tools;
  for (const name of ['list_recurring_invoices', 'create_recurring_invoice', 'pause_recurring_invoice'])
    t.ok(
      listed.some((x) => x.name === name),
      `${name} listed`,
    );
  t.equal(listed.find((x) => x.name === 'create_recurring_invoice')!.annotations?.destructiveHint, true);

  const input = {
    template: {
      customer_id: customer.body.id,
      description: 'Miete Büro',
      items: [{ description: 'Miete {month} {year}', quantity: 1, price: 1000, account: '3400', taxAccount: '2200' }],
    },
    schedule: { every: 1, unit: 'month', day: 'last', start: '2026-01-01' },
    mode: 'post',
  };
  // it posts invoices from now on: a client that cannot ask the person gets nothing done
  const asked = await call('create_recurring_invoice', input);
  t.match(asked.structuredContent, { confirmation: { outcome: 'not_done', reason: 'not_asked' } });
  t.match(asked.content![0]!.text, /^Nothing was created: this client cannot ask the person/);
  t.same((await rest('GET', '/arap/recurring/customer')).body, [], 'nothing created yet');

  t.equal((await rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);
  const created = await call('create_recurring_invoice', input);
  t.notOk(created.isError, JSON.stringify(created));
  const id = created.structuredContent!.id as number;
  t.equal(created.content?.[0]?.text, `Created recurring invoice ${id}.`);

  const list = await call('list_recurring_invoices', {});
  t.notOk(list.isError, JSON.stringify(list));
  t.match(list.structuredContent!.recurring_invoices, [
    { id, name: 'Globex', status: 'active', next_date: '2026-01-31', grossAmount: 1081 },
  ]);

  const paused = await call('pause_recurring_invoice', { id });
  t.notOk(paused.isError, JSON.stringify(paused));
  t.equal(paused.content?.[0]?.text, `Recurring invoice ${id} paused.`);
  t.equal((await rest('GET', `/arap/recurring/customer/${id}`)).body.status, 'paused');

  const bad = await call('create_recurring_invoice', { ...input, schedule: { ...input.schedule, day: 31 } });
  t.ok(bad.isError, 'day 31 is refused');
});
