/**
 * record_payment and aging_report: tools whose input names the side (`vc`), through a real
 * gateway on a real ledger with the official MCP client; a read grant sees aging_report only.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { vcSchema } from '@ledger/shared';
import { findTool } from '../src/mcp/tools/catalogue.ts';
import { endpointKey } from '../src/mcp/tools/declare.ts';
import { buildLedgerRequest } from '../src/mcp/tools/request.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text: string }[];
};

t.test('the side comes from the input: schema, REST call, the endpoint that decides visibility', async (t) => {
  const pay = findTool('record_payment')!.declaration;
  t.same(pay.input.required, ['vc', 'document_id', 'date', 'amount', 'account']);
  t.match(pay.input.properties.vc, { enum: vcSchema.enum });
  t.same(pay.rest, { method: 'POST', path: '/arap/payment/:vc' });
  t.equal(endpointKey(pay), 'POST /arap/payment/customer');
  t.same(
    buildLedgerRequest(pay, 'acme', { vc: 'vendor', document_id: 3, date: '2024-03-20', amount: 10, account: '1020' }),
    {
      method: 'POST',
      path: '/client/acme/arap/payment/vendor',
      body: { document_id: 3, date: '2024-03-20', amount: 10, account: '1020' },
    },
  );
  const aging = findTool('aging_report')!.declaration;
  t.same(aging.input.required, ['vc']);
  t.same(buildLedgerRequest(aging, 'acme', { vc: 'customer', date: '2024-04-30' }), {
    method: 'GET',
    path: '/client/acme/arap/aging/customer?date=2024-04-30',
  });
});

t.test('record_payment and aging_report over MCP, both sides', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  // posting, payments and e-mails run without asking the person here (confirmation.test.ts tests the question)
  t.equal((await rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);
  const vendor = await rest('POST', '/arap/vendor', { name: 'Acme Supplies' });
  const customer = await rest('POST', '/arap/customer', { name: 'Globex' });
  const bill = await rest('POST', '/arap/transaction/vendor', {
    type: 'transaction',
    vendor_id: vendor.body.id,
    invDate: '2024-03-01',
    dueDate: '2024-03-31',
    pending: '0',
    lines: [{ account: '6500', amount: 300 }],
  });
  const invoice = await rest('POST', '/arap/transaction/customer', {
    type: 'transaction',
    customer_id: customer.body.id,
    invDate: '2024-03-01',
    curr: 'EUR',
    exchangerate: 0.95,
    pending: '0',
    lines: [{ account: '3400', amount: 1000 }],
  });
  t.equal(bill.status, 201);
  t.equal(invoice.status, 201);

  const { resource, tokens } = await connect(stack, company, { choices: { invoices: 'write' } });
  const client = new Client({ name: 'payment-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  const paid = await call('record_payment', {
    vc: 'vendor',
    document_id: bill.body.id,
    date: '2024-03-20',
    amount: 100,
    account: '1020',
  });
  t.notOk(paid.isError, JSON.stringify(paid));
  t.match(paid.content?.[0]?.text, /Recorded payment \d+ of 100 on bill \d+/);
  const received = await call('record_payment', {
    vc: 'customer',
    document_id: invoice.body.id,
    date: '2024-03-25',
    amount: 1000,
    exchangerate: 0.97,
    account: '1020',
  });
  t.notOk(received.isError, JSON.stringify(received));
  t.match((await rest('GET', `/arap/payment/customer/${received.structuredContent!.id}`)).body, {
    fx_gain_loss: 20,
    base_amount: 970,
  });

  const over = await call('record_payment', {
    vc: 'vendor',
    document_id: bill.body.id,
    date: '2024-03-21',
    amount: 200.01,
    account: '1020',
  });
  t.equal(over.isError, true, 'a ledger refusal is a tool error');
  t.equal(over.structuredContent?.error?.code, 'overpayment');
  const noSide = await call('record_payment', {
    document_id: bill.body.id,
    date: '2024-03-21',
    amount: 1,
    account: '1020',
  });
  t.equal(noSide.isError, true, 'vc is required');

  const payables = await call('aging_report', { vc: 'vendor', date: '2024-04-15' });
  t.match(payables.structuredContent, { date: '2024-04-15', currency: 'CHF', totals: { '1-30': 200, total: 200 } });
  t.equal(payables.structuredContent?.rows.length, 1);
  t.match(payables.content?.[0]?.text, /Payables as of 2024-04-15: 1 vendor with open amounts, 200 CHF in total/);
  const receivables = await call('aging_report', { vc: 'customer', date: '2024-03-24' });
  t.match(
    receivables.structuredContent,
    { totals: { '1-30': 950, total: 950 } },
    'before the payment: 1000 EUR at 0.95',
  );
  t.same(
    (await call('aging_report', { vc: 'customer', date: '2024-03-25' })).structuredContent?.rows,
    [],
    'paid on the 25th',
  );

  const reader = await connect(stack, company, { choices: { invoices: 'read' } });
  const readClient = new Client({ name: 'payment-reader', version: '1' });
  await readClient.connect(
    new StreamableHTTPClientTransport(new URL(reader.resource), {
      requestInit: { headers: { Authorization: `Bearer ${reader.tokens.access_token}` } },
    }),
  );
  t.teardown(() => readClient.close());
  const names = (await readClient.listTools()).tools.map((x) => x.name);
  t.ok(names.includes('aging_report'), 'a read grant sees aging_report');
  t.notOk(names.includes('record_payment'), 'but not record_payment');
});
