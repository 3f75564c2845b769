/**
 * MCP resources on a real gateway and ledger with the official client v2 in both eras:
 * resources/list (paged) and resources/read for documents, invoice PDFs, the chart, the tax
 * codes and the reports (JSON and CSV), filtered by scope as tools are; tool results that
 * link them; another company's URI and a URI outside the grant refused.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { fixture, IMAGE_PDF } from '../../ledger-service/test/fixtures/inbox/fixtures.ts';
import { listResources, resolveResource } from '../src/mcp/resources.ts';
import type { McpConnection } from '../src/mcp/types.ts';
import { connect, startStack } from './helpers.ts';

async function mcpClient(
  t: { teardown(fn: () => unknown): void },
  url: string,
  token: string,
  mode: 'auto' | 'legacy',
) {
  const client = new Client({ name: 'resources-test', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  t.teardown(() => client.close());
  return client;
}

t.test('URIs: what each names, and what names nothing', async (t) => {
  t.match(resolveResource('ledger://acme/chart/accounts'), { dataset: 'acme', path: '/system/chart/accounts' });
  t.match(resolveResource('ledger://acme/reports/vat.csv?from=2026-01-01&to=2026-03-31'), {
    path: '/reports/vat?from=2026-01-01&to=2026-03-31',
    accept: 'text/csv',
  });
  t.match(resolveResource('ledger://acme/reports/balance_sheet?date=2026-06-30'), {
    path: '/reports/balance_sheet?date=2026-06-30',
  });
  t.throws(
    () => resolveResource('ledger://acme/reports/balance_sheet?from=2026-01-01'),
    /this report takes language, layout, date, not from$/,
  );
  t.match(resolveResource('ledger://acme/invoices/customer/12/pdf'), {
    path: '/arap/invoice/customer/12/pdf',
    side: 'customer',
  });
  t.match(resolveResource('ledger://acme%20co/documents/7'), { dataset: 'acme co', path: '/documents/7/content' });
  for (const uri of [
    'ledger://acme/documents/0',
    'ledger://acme/documents/x',
    'ledger://acme/reports/cash_flow',
    'ledger://acme/chart/accounts?x=1',
    'https://acme/taxes',
    'ledger://acme',
  ]) {
    t.equal(resolveResource(uri), undefined, `${uri}: nothing`);
  }
});

t.test('resources of the granted areas, read through the ledger as the person', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const other = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  // three stored documents: the attachments of a bill
  const pdf = fixture(IMAGE_PDF.file);
  const files = [0, 1, 2].map((i) => ({
    name: `scan-${i}.pdf`,
    data: `data:application/pdf;base64,${Buffer.concat([pdf, Buffer.from(`\n%${i}\n`)]).toString('base64')}`,
  }));
  const vendor = await rest('POST', '/arap/vendor', { name: 'Resource Vendor AG' });
  const bill = await rest('POST', '/arap/transaction/vendor', {
    vendor_id: vendor.body.id,
    invDate: '2026-02-01',
    lines: [{ account: '4000', amount: 10 }],
    files,
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body));
  const documents = (await rest('GET', '/documents')).body as { id: number; name: string; size: number }[];
  t.equal(documents.length, 3);
  const customer = await rest('POST', '/arap/customer', { name: 'Resource Customer SA' });
  const chart = (await rest('GET', '/system/chart/accounts')).body as { accno: string; link: string }[];
  const income = chart.find((a) => a.link.split(':').includes('AR_amount'))!;
  const invoice = await rest('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customer.body.id,
    invDate: '2026-02-02',
    pending: '0',
    items: [{ description: 'Audit', quantity: 1, price: 500, account: income.accno }],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));

  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'read', invoices: 'read', contacts: 'none', bank: 'none', documents: 'read' },
  });
  const base = `ledger://${company.dataset}`;

  for (const mode of ['auto', 'legacy'] as const) {
    t.test(`${mode === 'auto' ? '2026-07-28' : '2025-era'} client`, async (t) => {
      const client = await mcpClient(t, resource, tokens.access_token, mode);
      t.ok(client.getServerCapabilities()?.resources, 'the server offers resources');
      const listed = await client.listResources();
      const uris = listed.resources.map((r) => r.uri);
      t.same(uris.slice(0, 2), [`${base}/chart/accounts`, `${base}/taxes`], 'the chart and the tax codes first');
      for (const report of ['trial_balance', 'income_statement', 'balance_sheet', 'vat']) {
        t.ok(
          uris.includes(`${base}/reports/${report}`) && uris.includes(`${base}/reports/${report}.csv`),
          `${report}: JSON and CSV`,
        );
      }
      t.same(
        uris.filter((u) => u.includes('/documents/')).sort(),
        documents.map((d) => `${base}/documents/${d.id}`).sort(),
        'the stored documents',
      );
      t.equal(listed.nextCursor, undefined, 'one page');
      const doc = listed.resources.find((r) => r.uri === `${base}/documents/${documents[0]!.id}`);
      t.match(doc, { name: documents[0]!.name, mimeType: 'application/pdf', size: documents[0]!.size });

      const templates = (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
      t.same(templates, [
        `${base}/documents/{id}`,
        `${base}/invoices/{vc}/{id}/pdf`,
        `${base}/reports/{report}{?from,to,date}`,
        `${base}/reports/{report}.csv{?from,to,date}`,
      ]);

      const accounts = (await client.readResource({ uri: `${base}/chart/accounts` })).contents[0] as {
        mimeType: string;
        text: string;
      };
      t.equal(accounts.mimeType, 'application/json');
      t.same(JSON.parse(accounts.text), chart, 'the chart as the REST API answers it');
      const trial = (await client.readResource({ uri: `${base}/reports/trial_balance?from=2026-01-01&to=2026-12-31` }))
        .contents[0] as { text: string };
      t.match(JSON.parse(trial.text), { from: '2026-01-01', to: '2026-12-31' }, 'the period asked');
      const csv = (
        await client.readResource({ uri: `${base}/reports/trial_balance.csv?from=2026-01-01&to=2026-12-31` })
      ).contents[0] as { mimeType: string; text: string };
      t.equal(csv.mimeType, 'text/csv');
      t.match(csv.text.split('\n')[0], /,/, 'CSV with a header line');
      const bytes = (await client.readResource({ uri: `${base}/documents/${documents[0]!.id}` })).contents[0] as {
        mimeType: string;
        blob: string;
      };
      t.equal(bytes.mimeType, 'application/pdf');
      t.equal(Buffer.from(bytes.blob, 'base64').length, documents[0]!.size, "the document's bytes");
      const invoicePdf = (await client.readResource({ uri: `${base}/invoices/customer/${invoice.body.id}/pdf` }))
        .contents[0] as { blob: string };
      t.equal(Buffer.from(invoicePdf.blob, 'base64').subarray(0, 5).toString(), '%PDF-');

      // refused: another company's URI (not this server's), an unknown record, a bad query
      await t.rejects(client.readResource({ uri: `ledger://${other.dataset}/chart/accounts` }), /Resource not found/);
      await t.rejects(client.readResource({ uri: `${base}/documents/987654321` }), /Resource not found/);
      await t.rejects(client.readResource({ uri: `${base}/reports/vat?date=2026-01-01` }), /takes from, to, not date/);
      await t.rejects(client.listResources({ cursor: 'nonsense' }), /Invalid cursor/);

      // tool results link the resources instead of carrying the bytes
      const got = await client.callTool({ name: 'get_document', arguments: { id: documents[0]!.id } });
      t.match(got.structuredContent, { id: documents[0]!.id }, 'get_document keeps its structured content');
      t.match(got.content, [
        { type: 'text' },
        { type: 'text' },
        {
          type: 'resource_link',
          uri: `${base}/documents/${documents[0]!.id}`,
          mimeType: 'application/pdf',
          size: documents[0]!.size,
        },
      ]);
      const report = await client.callTool({ name: 'vat_report', arguments: { from: '2026-01-01', to: '2026-03-31' } });
      t.match((report.content as { type: string }[]).at(-1), {
        type: 'resource_link',
        uri: `${base}/reports/vat.csv?from=2026-01-01&to=2026-03-31`,
        mimeType: 'text/csv',
      });
    });
  }

  t.test('resources/list pages through the documents with a cursor', async (t) => {
    const resolved = await stack.gateway.deps.connections.resolveAccessToken(tokens.access_token);
    if (!resolved.ok) throw new Error('token not resolved');
    const connection: McpConnection = resolved.connection;
    const deps = {
      publicUrl: stack.url,
      callLedger: (c: McpConnection, m: 'GET', p: string, b?: unknown, h?: Record<string, string>) =>
        stack.gateway.deps.ledger.callAs({ ...c, userId: Number(c.userId), scopes: [...c.scopes] }, m, p, b, h),
    };
    const first = await listResources(deps, connection, undefined, undefined, 2);
    t.equal(first.resources.filter((r) => r.uri.includes('/documents/')).length, 2, 'a full page of documents');
    t.ok(first.nextCursor, 'and a cursor');
    const second = await listResources(deps, connection, undefined, first.nextCursor, 2);
    t.same(
      second.resources.map((r) => r.uri),
      [`${base}/documents/${documents[2]!.id}`],
      'the rest, without the fixed resources',
    );
    t.equal(second.nextCursor, undefined, 'the last page');
  });
  // last: connecting again replaces the connection above (one per person and company)
  t.test('outside the grant: neither listed nor readable', async (t) => {
    const contactsOnly = await connect(stack, company, {
      choices: { accounting: 'none', invoices: 'none', contacts: 'read', bank: 'none', documents: 'none' },
    });
    const client = await mcpClient(t, resource, contactsOnly.tokens.access_token, 'auto');
    t.same((await client.listResources()).resources, [], 'nothing listed');
    t.same((await client.listResourceTemplates()).resourceTemplates, [], 'no templates');
    const res = await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${contactsOnly.tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `${base}/chart/accounts` },
      }),
    });
    t.equal(res.status, 403, 'refused like a tool call outside the grant');
    t.match(res.headers.get('www-authenticate'), /error="insufficient_scope", scope="accounting:read"/);
  });
});
