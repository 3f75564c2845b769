/**
 * The VAT tools (prepare_vat_return, get_vat_return, settle_vat_return) in a real gateway on a
 * real ledger, called with the official MCP client: prepare a quarter, read a figure's lines,
 * settle it; settling asks the person first (confirmation) and names the amount payable.
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

t.test('VAT tools through the gateway', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const customer = await rest('POST', '/arap/customer', { name: 'Globex' });
  const sale = await rest('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invDate: '2025-02-15',
    pending: '0',
    lines: [{ account: '3400', amount: 1000, taxAccount: '2200' }],
  });
  t.equal(sale.status, 201, JSON.stringify(sale.body));

  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'write', invoices: 'none', contacts: 'none', bank: 'none', documents: 'none' },
  });
  const client = new Client({ name: 'vat-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  const listed = (await client.listTools()).tools;
  for (const name of ['prepare_vat_return', 'get_vat_return', 'settle_vat_return'])
    t.ok(
      listed.some((x) => x.name === name),
      `${name} listed`,
    );
  t.equal(listed.find((x) => x.name === 'settle_vat_return')!.annotations?.destructiveHint, true);

  const prepared = await call('prepare_vat_return', { from: '2025-01-01', to: '2025-03-31' });
  t.notOk(prepared.isError, JSON.stringify(prepared));
  const id = prepared.structuredContent!.id as number;
  t.equal(prepared.content?.[0]?.text, `Prepared VAT return ${id}, 81.00 payable to the ESTV.`);

  const got = await call('get_vat_return', { id, figure: '303_tax' });
  t.notOk(got.isError, JSON.stringify(got));
  t.equal(got.structuredContent!.figures['399'], 81);
  t.match(got.structuredContent!.figure_lines, {
    figure: '303_tax',
    total: 81,
    lines: [{ id: sale.body.id, tax: 81 }],
  });

  // settling posts: a client that cannot ask the person gets nothing done, and is told why
  const asked = await call('settle_vat_return', { id });
  t.match(asked.structuredContent, { confirmation: { outcome: 'not_done', reason: 'not_asked' } });
  t.match(asked.content![0]!.text, /Nothing was posted for \d+: this client cannot ask the person/);
  t.equal((await rest('GET', `/reports/vat/returns/${id}`)).body.status, 'draft', 'nothing posted yet');

  t.equal((await rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);
  const settled = await call('settle_vat_return', { id });
  t.notOk(settled.isError, JSON.stringify(settled));
  t.match(settled.content?.[0]?.text, /^Settled VAT return \d+ by journal entry \d+, 81\.00 payable to the ESTV\.$/);
  const again = await call('settle_vat_return', { id });
  t.ok(again.isError, 'twice');
  t.match(JSON.stringify(again.structuredContent), /conflict/);
});
