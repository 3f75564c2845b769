/**
 * In-chat review (src/mcp/apps.ts, docs/mcp.md "Apps"): the views are declared as MCP Apps
 * and render in headless Chromium inside a minimal host page, served by a loopback HTTP
 * server, that implements the host side of the bridge (ui/initialize, the tool-input and
 * tool-result notifications, tools/call and resources/read forwarded to the real gateway by
 * the official SDK client, as a host forwards them). Clicking "Approve" reaches the ledger;
 * "Keep as draft" does not; a report row drills down into its ledger lines.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { MCP_APP_MIME_TYPE, REPORT_APP_URI, REVIEW_APP_URI } from '../src/mcp/apps.ts';
import { connect, startStack } from './helpers.ts';

/** The host side of the bridge; the view runs in a sandboxed srcdoc iframe (an opaque origin). */
const HOST_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>test host</title></head><body>
<iframe id="view" sandbox="allow-scripts" style="width:800px;height:600px"></iframe>
<script>
const frame = document.getElementById('view');
let tool = null;
window.show = (html, args, result) => { tool = { args, result }; frame.srcdoc = html; };
window.addEventListener('message', async (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  const answer = (body) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0', id: m.id }, body), '*');
  const send = (method, params) => frame.contentWindow.postMessage({ jsonrpc: '2.0', method, params }, '*');
  if (m.method === 'ui/initialize') {
    answer({ result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1' },
      hostCapabilities: { serverTools: {}, serverResources: {} }, hostContext: { theme: 'light',
        displayMode: 'inline' } } });
  } else if (m.method === 'ui/notifications/initialized') {
    send('ui/notifications/tool-input', { arguments: tool.args });
    send('ui/notifications/tool-result', tool.result);
  } else if (m.method && m.id !== undefined) {
    try { answer({ result: await window.forward(m.method, m.params) }); }
    catch (err) { answer({ error: { code: -32000, message: String(err && err.message || err) } }); }
  }
});
</script></body></html>`;

t.test('MCP Apps: declared, self-contained, and working through a host bridge in Chromium', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const vendor = (await rest('POST', '/arap/vendor', { name: 'Papeterie Muster AG' })).body;
  const draft = async (documentNumber: string) => {
    const res = await rest('POST', '/arap/transaction/vendor', {
      type: 'transaction',
      vendor_id: vendor.id,
      documentNumber,
      invDate: '2026-03-02',
      lines: [
        { account: '6500', amount: 200, taxAccount: '1170', description: 'Paper' },
        { account: '6500', amount: 100, description: 'Delivery' },
      ],
    });
    t.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as number;
  };
  const status = async (id: number) => (await rest('GET', `/arap/document/vendor/${id}`)).body.status;

  // the host: the official client; the person says yes when the server asks (as a host shows the question)
  const { resource, tokens } = await connect(stack, company, {
    choices: { invoices: 'write', accounting: 'read', contacts: 'read', documents: 'read' },
  });
  const client = new Client(
    { name: 'apps-test-host', version: '1' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { confirm: true } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());

  // declared: the extension, the views, the tools that name them
  const ui = (client.getServerCapabilities() as { extensions?: Record<string, { mimeTypes?: string[] }> } | undefined)
    ?.extensions?.['io.modelcontextprotocol/ui'];
  t.same(ui?.mimeTypes, [MCP_APP_MIME_TYPE], 'the server declares the MCP Apps extension');
  const tools = (await client.listTools()).tools;
  const meta = (name: string) => (tools.find((x) => x.name === name)?._meta as { ui?: { resourceUri?: string } })?.ui;
  t.same(meta('get_bill'), { resourceUri: REVIEW_APP_URI });
  t.same(meta('get_invoice'), { resourceUri: REVIEW_APP_URI });
  t.same(meta('trial_balance'), { resourceUri: REPORT_APP_URI });
  t.same(meta('vat_report'), { resourceUri: REPORT_APP_URI });
  t.equal(meta('approve_bill'), undefined);
  const listed = (await client.listResources()).resources;
  for (const uri of [REVIEW_APP_URI, REPORT_APP_URI])
    t.match(
      listed.find((r) => r.uri === uri),
      { mimeType: MCP_APP_MIME_TYPE },
      `${uri} listed`,
    );
  const html: Record<string, string> = {};
  for (const uri of [REVIEW_APP_URI, REPORT_APP_URI]) {
    const [content] = (await client.readResource({ uri })).contents as {
      uri: string;
      mimeType: string;
      text: string;
      _meta?: Record<string, any>;
    }[];
    t.equal(content!.mimeType, MCP_APP_MIME_TYPE);
    t.same(
      content!._meta?.ui?.csp,
      { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      'strict CSP metadata',
    );
    t.notMatch(
      content!.text,
      /(src|href)\s*=\s*["']?(https?:)?\/\/|@import|<link/i,
      'self-contained: no external load',
    );
    html[uri] = content!.text;
  }

  // the host page, on a loopback server of its own; every request the page makes is recorded
  const host = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(HOST_PAGE);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => host.close(() => resolve())));
  const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const forwarded: { method: string; name?: string }[] = [];
  const open = async (uri: string, args: Record<string, unknown>, result: unknown) => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    t.teardown(() => page.close());
    /** every request the page made went to the host page's own server (the view loads nothing) */
    const loadedNothingElse = (tt: { same: typeof t.same }) =>
      tt.same(
        requests.filter((u) => !u.startsWith(hostUrl)),
        [],
        'the view loaded nothing from anywhere else',
      );
    await page.exposeFunction('forward', async (method: string, params: Record<string, any>) => {
      forwarded.push({ method, ...(typeof params?.name === 'string' ? { name: params.name } : {}) });
      if (method === 'tools/call')
        return client.callTool(params as { name: string; arguments: Record<string, unknown> });
      if (method === 'resources/read') return client.readResource(params as { uri: string });
      if (method === 'ui/update-model-context') return {};
      throw new Error(`the test host does not answer ${method}`);
    });
    await page.goto(hostUrl);
    await page.evaluate(([h, a, r]) => (window as any).show(h, a, r), [html[uri]!, args, result] as const);
    return { page, loadedNothingElse };
  };

  t.test('review card: lines, tax, totals; Approve posts the bill through the bridge', async (t) => {
    const id = await draft('R-100');
    const result = await client.callTool({ name: 'get_bill', arguments: { id } });
    const { page, loadedNothingElse } = await open(REVIEW_APP_URI, { id }, result);
    const view = page.frameLocator('#view');
    await view.locator('h1').waitFor();
    t.match(await view.locator('h1').textContent(), 'Bill R-100 — Papeterie Muster AG');
    t.equal(await view.locator('table[aria-label="Lines"] tbody tr').count(), 2, 'two lines');
    t.equal(await view.locator('#net').textContent(), '300.00');
    t.equal(await view.locator('#tax').textContent(), '16.20');
    t.equal(await view.locator('#total').textContent(), '316.20');
    await view.locator('#approve').click();
    await view.locator('#status', { hasText: 'approved and posted' }).waitFor();
    t.same(
      forwarded.filter((f) => f.method === 'tools/call').map((f) => f.name),
      ['approve_bill'],
      'the click became a tools/call',
    );
    t.equal(await status(id), 'posted', 'the ledger posted the bill');
    t.match(asked[0], /approve and post bill R-100 from Papeterie Muster AG, 316\.20 CHF/, 'the person was asked');
    await view.locator('#approve').waitFor({ state: 'detached' });
    loadedNothingElse(t);
  });

  t.test('review card: Keep as draft leaves the bill a draft', async (t) => {
    forwarded.length = 0;
    const id = await draft('R-101');
    const { page, loadedNothingElse } = await open(
      REVIEW_APP_URI,
      { id },
      await client.callTool({ name: 'get_bill', arguments: { id } }),
    );
    const view = page.frameLocator('#view');
    await view.locator('#keep').click();
    await view.locator('#status', { hasText: 'kept bill R-101 as a draft' }).waitFor();
    t.same(forwarded, [{ method: 'ui/update-model-context' }], 'no tool was called');
    t.equal(await status(id), 'draft');
    loadedNothingElse(t);
  });

  t.test('report view: trial balance with drill-down into ledger lines', async (t) => {
    forwarded.length = 0;
    const args = { from: '2026-01-01', to: '2026-12-31' };
    const result = await client.callTool({ name: 'trial_balance', arguments: args });
    const { page, loadedNothingElse } = await open(REPORT_APP_URI, args, result);
    const view = page.frameLocator('#view');
    await view.locator('h1', { hasText: 'Trial balance' }).waitFor();
    await view.locator('tr[data-account="6500"]').click();
    const lines = view.locator('table[aria-label="Ledger lines"] tbody tr');
    await lines.first().waitFor();
    t.ok((await lines.count()) >= 1, 'the posted bill shows in account 6500');
    t.same(forwarded, [{ method: 'tools/call', name: 'list_ledger_lines' }]);
    loadedNothingElse(t);
  });
});
