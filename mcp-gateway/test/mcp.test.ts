/**
 * The MCP endpoint in a real gateway (SQLite file) on a real ledger (Postgres), over HTTP
 * on loopback, with the official MCP client v2: every tool of the catalogue against the real
 * REST API, ledger errors as tool errors, input validation, token expiry, protocol edges.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ALL_SCOPES } from '@ledger/shared';
import { CATALOGUE } from '../src/mcp/tools/catalogue.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { pdfText } from '../../ledger-service/test/support/pdf.ts';
import { connect, startStack, type Stack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text: string }[];
};

async function mcpClient(
  t: { teardown(fn: () => unknown): void },
  url: string,
  token: string,
  mode: 'auto' | 'legacy' = 'auto',
) {
  const client = new Client({ name: 'gateway-test', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  return { client, call };
}

function ok(r: ToolResult): Record<string, any> {
  if (r.isError || !r.structuredContent) throw new Error(`tool failed: ${JSON.stringify(r)}`);
  return r.structuredContent;
}

const WRITE_ALL = { accounting: 'write', invoices: 'write', contacts: 'write', bank: 'write', documents: 'write' };

t.test('MCP endpoint with every tool', async (t) => {
  const stack: Stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: WRITE_ALL });
  t.same(
    tokens.scope.split(' ').sort(),
    ALL_SCOPES.filter((s) => s.endsWith(':write')).sort(),
    'every area granted (write implies read)',
  );
  const { client, call } = await mcpClient(t, resource, tokens.access_token);
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  // posting, payments and e-mails run without asking the person here (confirmation.test.ts tests the question)
  t.equal((await rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);

  t.test(
    'tools/list: the whole catalogue for an owner with every scope, in catalogue order, with annotations',
    async (t) => {
      const tools = (await client.listTools()).tools;
      t.same(
        tools.map((x) => x.name),
        CATALOGUE.map((c) => c.declaration.name),
      );
      for (const tool of tools) {
        const d = CATALOGUE.find((c) => c.declaration.name === tool.name)!.declaration;
        t.equal(tool.annotations?.readOnlyHint, d.access === 'read', `${tool.name} readOnlyHint`);
        // destructiveHint is meaningful only for writes (the MCP schema): reads say only that they read
        t.equal(
          typeof tool.annotations?.destructiveHint,
          d.access === 'write' ? 'boolean' : 'undefined',
          `${tool.name} destructiveHint`,
        );
        t.equal(tool.inputSchema.type, 'object', `${tool.name} input schema`);
      }
      const again = (await client.listTools()).tools.map((x) => x.name);
      t.same(
        again,
        tools.map((x) => x.name),
        'deterministic',
      );
    },
  );

  t.test("bank tools: list_bank_accounts reads the company's own accounts", async (t) => {
    const created = await rest('POST', '/bank/accounts', {
      name: 'Main CHF',
      iban: 'CH93 0076 2011 6238 5295 7',
      currency: 'CHF',
      account: '1020',
    });
    t.equal(created.status, 201);
    const listed = ok(await call('list_bank_accounts', {}));
    t.same(
      listed.bank_accounts.map((a: { id: number; iban: string }) => [a.id, a.iban]),
      [[created.body.id, 'CH9300762011623852957']],
      'the account, IBAN in electronic form',
    );
  });

  t.test('contacts tools against the REST API', async (t) => {
    for (const vc of ['vendor', 'customer'] as const) {
      const created = ok(await call(`create_${vc}`, { name: `MCP ${vc} GmbH`, city: 'Basel', country: 'CH' }));
      t.ok(created.id, `create_${vc}`);
      const updated = await call(`update_${vc}`, { id: created.id, city: 'Luzern', zipcode: '6003' });
      t.notOk(updated.isError, `update_${vc}`);
      const got = ok(await call(`get_${vc}`, { id: created.id }));
      t.equal(got.city, 'Luzern');
      const found = ok(await call(`search_${vc}s`, { name: `mcp ${vc}` }));
      t.same(
        found[`${vc}s`].map((p: { id: number }) => p.id),
        [created.id],
        `search_${vc}s wraps the list`,
      );
      const viaRest = await rest('GET', `/arap/${vc}/${created.id}`);
      t.equal(viaRest.body.zipcode, '6003', 'the same record over REST');
    }
    const vendor = ok(await call('create_vendor', { name: 'MCP Payee AG', curr: 'EUR' }));
    t.equal((await rest('GET', `/arap/vendor/${vendor.id}`)).body.currency, 'EUR', 'curr written, currency read');
    const bank = ok(
      await call('create_vendor_bank_account', {
        id: vendor.id,
        iban: 'DE89 3704 0044 0532 0130 00',
        name: 'MCP Payee AG',
      }),
    );
    const changed = ok(
      await call('update_vendor_bank_account', { id: vendor.id, bankId: bank.id, bic: 'COBADEFFXXX', name: null }),
    );
    t.same(
      changed,
      { id: bank.id, vendor_id: vendor.id, iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      'update_vendor_bank_account answers the account',
    );
    t.same(
      ok(await call('list_vendor_bank_accounts', { id: vendor.id })).bank_accounts,
      [changed],
      'list_vendor_bank_accounts wraps the list',
    );
    const bad = await call('update_vendor_bank_account', {
      id: vendor.id,
      bankId: bank.id,
      iban: 'DE89370400440532013001',
    });
    t.equal(bad.structuredContent?.error.field, '/iban', "a bad IBAN comes back as the ledger's tool error");
  });

  t.test('bills and invoices, accounting, and ledger errors as tool errors', async (t) => {
    const accounts = ok(await call('get_chart_of_accounts', {})).accounts as { accno: string; link: string }[];
    const taxes = ok(await call('list_tax_codes', {})).taxes as { accno: string; rate: number }[];
    t.ok(accounts.length > 10 && taxes.length > 0);
    const expense = accounts.find((a) => a.link.split(':').includes('AP_amount'))!;
    const income = accounts.find((a) => a.link.split(':').includes('AR_amount'))!;
    const vendor = ok(await call('create_vendor', { name: 'Bill Vendor AG' }));
    const today = new Date().toISOString().slice(0, 10);
    const bill = {
      vendor_id: vendor.id,
      documentNumber: 'INV-77',
      invDate: today,
      lines: [{ account: expense.accno, amount: 80 }],
    };

    const created = await call('create_bill', bill);
    const id = ok(created).id as number;
    t.match(created.content?.[0]?.text, new RegExp(`^Created bill ${id} as a draft\\.$`), 'short text');
    t.same(
      JSON.parse(created.content![1]!.text),
      created.structuredContent,
      'and the JSON for clients without structured content',
    );
    t.notOk((await call('update_bill', { id, ...bill, description: 'changed' })).isError, 'update_bill');
    t.equal(ok(await call('get_bill', { id })).description, 'changed');
    t.same(
      ok(await call('list_bills', { document_number: 'INV-77' })).bills.map((b: { id: number }) => b.id),
      [id],
      'list_bills',
    );

    // amount_exceeded: the person's approval limit applies to the AI connection
    await stack.ledger
      .db('memberships')
      .where({ company_id: company.company.id, user_id: company.userId })
      .update({ approval_limit: '10' });
    const exceeded = await call('approve_bill', { id, ...bill });
    t.equal(exceeded.isError, true);
    t.equal(exceeded.structuredContent?.error.code, 'amount_exceeded');
    t.match(exceeded.content?.[0]?.text, /^amount_exceeded: .*approval limit/);
    await stack.ledger
      .db('memberships')
      .where({ company_id: company.company.id, user_id: company.userId })
      .update({ approval_limit: null });
    const approved = await call('approve_bill', { id, ...bill });
    t.match(approved.content?.[0]?.text, new RegExp(`^Bill ${id} approved and posted\\.$`));
    t.equal(ok(await call('get_bill', { id })).status, 'posted');

    // invoices: customer-side documents of both kinds (here an AR transaction, recorded over REST)
    const customer = (await rest('POST', '/arap/customer', { name: 'Invoice Customer SA' })).body;
    const invoice = await rest('POST', '/arap/transaction/customer', {
      customer_id: customer.id,
      documentNumber: 'SO-1',
      invDate: today,
      lines: [{ account: income.accno, amount: 200 }],
    });
    t.equal(invoice.status, 201, JSON.stringify(invoice.body));
    t.same(
      ok(await call('list_invoices', { customer_id: customer.id })).invoices.map((i: { id: number }) => i.id),
      [invoice.body.id],
    );
    t.match(ok(await call('get_invoice', { id: invoice.body.id })), { customer_id: customer.id, kind: 'transaction' });

    // the services catalogue, read through list_services
    const service = await rest('POST', '/arap/services', {
      description: 'Design workshop',
      unit: 'h',
      price: 150.25,
      income_account: income.accno,
    });
    t.equal(service.status, 201, JSON.stringify(service.body));
    await rest('POST', '/arap/services', { description: 'Retired offer', price: 1, active: false });
    const services = await call('list_services', { active: true, q: 'workshop' });
    t.same(
      ok(services).services.map((s: { id: number; price: number }) => [s.id, s.price]),
      [[service.body.id, 150.25]],
      'list_services wraps the list',
    );

    // drafts awaiting review, through list_workstation
    const draft = await rest('POST', '/arap/transaction/vendor', {
      vendornumber: 'V-00001',
      invDate: '2026-03-01',
      lines: [{ account: '4000', amount: 10 }],
    });
    const drafts = ok(await call('list_workstation', {}));
    t.ok(
      drafts.drafts.some((d: { id: number }) => d.id === draft.body.id),
      'list_workstation lists the new draft',
    );
    t.match(services.content?.[0]?.text, /^Found 1 service\.$/);

    // an invoice's PDF through get_invoice_pdf: a link to the PDF resource, read with resources/read
    const withItems = await rest('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customer.id,
      invDate: today,
      pending: '0',
      items: [{ description: 'Design workshop', quantity: 2, price: 150.25, account: income.accno }],
    });
    t.equal(withItems.status, 201, JSON.stringify(withItems.body));
    const pdf = await call('get_invoice_pdf', { id: withItems.body.id });
    t.notOk(pdf.isError, JSON.stringify(pdf.content));
    t.match(pdf.content?.[0]?.text, new RegExp(`^PDF of invoice ${withItems.body.id} \\(.+\\.pdf\\)\\.$`));
    const link = pdf.content?.[1] as { type: string; uri: string; mimeType: string; size: number } | undefined;
    t.equal(link?.type, 'resource_link', 'a link, not the bytes');
    t.equal(link?.mimeType, 'application/pdf');
    t.equal(link?.uri, `ledger://${company.dataset}/invoices/customer/${withItems.body.id}/pdf`);
    const read = await client.readResource({ uri: link!.uri });
    const content = read.contents[0] as { uri: string; mimeType?: string; blob?: string };
    t.equal(content.mimeType, 'application/pdf');
    const bytes = Buffer.from(content.blob ?? '', 'base64');
    t.equal(bytes.length, link?.size, 'the size the link announced');
    t.equal(bytes.subarray(0, 5).toString(), '%PDF-', 'the blob is the PDF');
    t.match(await pdfText(bytes), 'Design workshop', 'with the invoice items');
    t.equal((await call('get_invoice_pdf', { id: 987654321 })).structuredContent?.error.code, 'not_found');

    // e-mailing it through email_invoice: queued (202 at the ledger), listed on the invoice
    const mailed = ok(await call('email_invoice', { id: withItems.body.id, to: 'accounts@customer.example' }));
    t.equal(mailed.status, 'queued', 'the message is queued');
    t.match(mailed.message_id, /@/, 'with its Message-ID');
    const listed = await rest('GET', `/arap/invoice/customer/${withItems.body.id}`);
    t.same(
      listed.body.emails.map((e: { to: string }) => e.to),
      ['accounts@customer.example'],
      'the invoice lists the message',
    );
    // the reads cover both kinds: the invoice with items beside the AR transaction, told apart by kind
    const both = ok(await call('list_invoices', { customer_id: customer.id })).invoices;
    t.same(
      both.map((i: { id: number; kind: string }) => [i.id, i.kind]),
      [
        [invoice.body.id, 'transaction'],
        [withItems.body.id, 'invoice'],
      ],
      'list_invoices: both kinds',
    );
    const gotItems = ok(await call('get_invoice', { id: withItems.body.id }));
    t.equal(gotItems.kind, 'invoice');
    t.same(
      gotItems.items.map((i: { description: string }) => i.description),
      ['Design workshop'],
      'get_invoice: with its items',
    );

    // closed_period and vc_not_found come back with the ledger's code and message
    const closed = await rest('POST', '/system/close_books', { date: today });
    t.equal(closed.status, 200, JSON.stringify(closed.body));
    const late = await call('create_bill', { ...bill, documentNumber: 'INV-78' });
    t.equal(late.structuredContent?.error.code, 'closed_period');
    const nobody = await call('create_bill', {
      ...bill,
      vendor_id: undefined,
      vendornumber: 'NOBODY',
      invDate: '2999-01-01',
    });
    t.equal(nobody.structuredContent?.error.code, 'vc_not_found');
    const missing = await call('get_vendor', { id: 987654321 });
    t.equal(missing.structuredContent?.error.code, 'not_found');
  });

  t.test('input is validated against the shared schema before the ledger is called', async (t) => {
    const before = (await rest('GET', '/system/audit?limit=1')).body[0]?.id;
    const bad = await call('create_vendor', { name: 'X', country: 'switzerland' });
    t.equal(bad.isError, true);
    t.match(bad.content?.[0]?.text, /country/);
    const extra = await call('create_vendor', { name: 'X', unknown_field: 1 });
    t.equal(extra.isError, true, 'additional properties are refused');
    for (const [tool, args] of [
      ['create_vendor', { name: 'X', currency: 'EUR' }],
      ['update_customer', { id: 1, currency: 'EUR' }],
    ] as const) {
      const currency = await call(tool, args);
      t.equal(currency.isError, true, `${tool}: currency is refused`);
      t.match(
        currency.content?.[0]?.text,
        /invalid_currency: Send the currency as "curr" .*\(field \/curr\)/,
        `${tool}: the error says to send curr`,
      );
    }
    t.equal((await rest('GET', '/system/audit?limit=1')).body[0]?.id, before, 'nothing reached the ledger');
  });

  t.test('2025-era clients through the stateless fallback', async (t) => {
    const legacy = await mcpClient(t, resource, tokens.access_token, 'legacy');
    t.equal(legacy.client.getServerVersion()?.name, 'ledger-mcp');
    t.ok(ok(await legacy.call('search_vendors', {})).vendors.length >= 2);
    const get = await fetch(resource, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'text/event-stream' },
    });
    t.equal(get.status, 405, 'no standalone SSE stream: the server is stateless');
    const bad = await fetch(resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    t.equal(bad.status, 400);
    t.equal(((await bad.json()) as { error: { code: number } }).error.code, -32700);
  });

  t.test('nesting depth and size are bounded before the SDK sees the message', async (t) => {
    const post = (body: string) =>
      fetch(resource, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const toolCall = (args: string) =>
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_vendors","arguments":${args}}}`;
    const deep = await post(toolCall(`{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`));
    t.equal(deep.status, 400, '5,000 levels: 400, not 500');
    t.match(await deep.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: /nest.*64/ } });
    const justTooDeep = await post(toolCall(`{"name":${'{"a":'.repeat(62)}1${'}'.repeat(62)}}`));
    t.equal(justTooDeep.status, 400, '65 levels in all (message, params, arguments and 62)');
    const deepObject = await post(toolCall(`{"name":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`));
    t.equal(deepObject.status, 400, 'objects count like arrays');
    const unbalanced = await post(toolCall(`{"name":${'['.repeat(5000)}}`));
    t.equal(unbalanced.status, 400, 'a deep prefix is refused before it is parsed');

    const bracketsInStrings = await post(toolCall(`{"name":${JSON.stringify('[{\\"'.repeat(2000))}}`));
    t.equal(bracketsInStrings.status, 200, 'brackets inside strings do not count');
    const atTheLimit = await post(toolCall(`{"name":${'{"a":'.repeat(61)}1${'}'.repeat(61)}}`));
    t.equal(atTheLimit.status, 200, '64 levels in all are accepted (the tool then refuses the input)');
    t.match(await atTheLimit.text(), /"isError":true/, 'answered by the tool (JSON or an SSE event)');

    const big = await post(toolCall(JSON.stringify({ name: 'x'.repeat(4 * 1024 * 1024) })));
    t.equal(big.status, 413);
    t.match(await big.json(), { error: { code: -32600 } });
    t.ok(ok(await call('search_vendors', {})).vendors, 'the endpoint still answers');
  });

  t.test('an expired access token is refused with invalid_token', async (t) => {
    stack.advance(61 * 60 * 1000);
    t.teardown(() => stack.advance(-61 * 60 * 1000));
    const res = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    t.equal(res.status, 401);
    t.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token".*expired/);
  });

  t.test('the ledger down: 503, not a token error', async (t) => {
    await stack.ledger.close();
    const res = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    t.equal(res.status, 503);
    t.ok(res.headers.get('retry-after'));
  });
});
