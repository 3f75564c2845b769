/**
 * End to end with the official MCP clients, the same scenario for each (support/mcpClients.ts:
 * v1 with dynamic registration, v2 with a Client ID Metadata Document): 401 → protected-resource
 * metadata → authorization-server metadata → (registration) → authorize (sign-in with password +
 * TOTP, consent) → token → tools/list → create_vendor → create_bill → approve_bill;
 * create_customer → create_invoice (draft, two items) → update_invoice (approve) → get_invoice_pdf (a resource link,
 * read) → email_invoice → the mail at a loopback SMTP server; create_invoice with lines (an AR transaction); ledger
 * errors as tool errors; then REST with an API key and the audit log; refresh rotation; a token bound to its company's
 * MCP URL; and the end of the connection — disconnected from System → Management → AI connections, or by reusing a
 * rotated refresh token — seen by the client.
 */
import t, { type Test } from 'tap';
import { Browser, authorizeInBrowser, parseForms } from './support/browser.ts';
import { confirmationsAsked, MCP_CLIENTS, type McpClientAdapter } from './support/mcpClients.ts';
import { startSmtpTestServer } from '../../ledger-service/test/support/smtpServer.ts';
import { startStack } from './support/processes.ts';
import { mcpPost, tokenRequest } from './support/rawOAuth.ts';
import {
  billFlow,
  createDemo,
  invoiceFlow,
  person,
  recordingFetch,
  rest,
  type DemoCompany,
} from './support/scenario.ts';

const GRANTED_TOOLS = [
  'get_chart_of_accounts',
  'list_tax_codes',
  'list_changes',
  'list_dimensions',
  'list_assets',
  'list_fiscal_years',
  'list_journal_entries',
  'get_journal_entry',
  'list_ledger_lines',
  'trial_balance',
  'income_statement',
  'balance_sheet',
  'vat_report',
  'get_vat_return',
  'list_invoices',
  'get_invoice',
  'create_invoice',
  'update_invoice',
  'list_bills',
  'get_bill',
  'aging_report',
  'create_bill',
  'update_bill',
  'approve_bill',
  'record_payment',
  'list_services',
  'list_workstation',
  'email_invoice',
  'create_credit_note',
  'allocate_credit_note',
  'create_quote',
  'list_quotes',
  'convert_quote',
  'list_recurring_invoices',
  'create_recurring_invoice',
  'pause_recurring_invoice',
  'run_dunning',
  'send_reminder',
  'get_invoice_pdf',
  'search_vendors',
  'get_vendor',
  'create_vendor',
  'update_vendor',
  'search_customers',
  'get_customer',
  'create_customer',
  'update_customer',
  'list_vendor_bank_accounts',
  'create_vendor_bank_account',
  'update_vendor_bank_account',
];

for (const adapter of MCP_CLIENTS) {
  t.test(adapter.title, async (t) => {
    const identity = await adapter.identify(t);
    // the ledger sends through a real SMTP server on loopback (its own mail queue: processes.ts)
    const smtp = await startSmtpTestServer();
    t.teardown(() => smtp.stop());
    const stack = await startStack(t, identity.gatewayEnv, { env: { SMTP_URL: smtp.url } });
    const demo = await createDemo(stack);
    const other = await createDemo(stack);
    const mcpUrl = new URL(demo.mcp_url);
    t.equal(mcpUrl.toString(), `${stack.apiUrl}/mcp/${demo.dataset}`, 'the MCP URL is {api_url}/mcp/{dataset}');
    const recorded = recordingFetch();
    const session = adapter.session(mcpUrl, identity, recorded.fetchFn);

    // 1. the first request has no token: the client discovers, (registers,) and asks the person to authorize
    t.ok(await session.connectUnauthorized(), 'the client needs authorization');
    const paths = recorded.log.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
    t.match(paths[0], new RegExp(`^POST /mcp/${demo.dataset} 401$`), 'first MCP request: 401');
    t.ok(
      paths.includes(`GET /.well-known/oauth-protected-resource/mcp/${demo.dataset} 200`),
      'protected-resource metadata read',
    );
    t.ok(
      paths.some((p) => p.startsWith('GET /.well-known/oauth-authorization-server')),
      'authorization-server metadata read',
    );
    if (identity.metadataUrl) {
      t.notOk(
        paths.some((p) => p.startsWith('POST /oauth/register')),
        'no dynamic registration: the metadata document URL is the client_id',
      );
    } else {
      t.ok(paths.includes('POST /oauth/register 201'), 'dynamic client registration');
    }
    const clientId = session.clientId();
    t.ok(clientId, 'a client_id');
    const authUrl = session.authorizationUrl();
    t.ok(authUrl, 'the client opened the authorization URL');
    t.equal(authUrl!.searchParams.get('client_id'), clientId);
    t.equal(authUrl!.searchParams.get('code_challenge_method'), 'S256');
    t.equal(authUrl!.searchParams.get('resource'), mcpUrl.toString());

    // 2. sign-in with password + TOTP and consent, over HTTP
    const browser = new Browser(stack.apiUrl);
    const { callback, consentHtml } = await authorizeInBrowser(browser, authUrl!, person(demo), {
      accounting: 'read',
      invoices: 'write',
      contacts: 'write',
      bank: 'none',
      documents: 'none',
    });
    if (identity.metadataUrl) {
      t.match(consentHtml, /Verified domain/, 'consent page: verified domain of the metadata document');
      t.ok((identity.metadataFetches?.() ?? 0) >= 1, 'the gateway fetched the metadata document over https');
    } else {
      t.match(consentHtml, /Unverified app/, 'loopback http redirect URIs: unverified app warning');
    }
    t.ok(consentHtml.includes(adapter.clientName), 'the consent page names the client');
    t.equal(`${callback.origin}${callback.pathname}`, adapter.redirect);
    t.equal(callback.searchParams.get('iss'), stack.apiUrl, 'iss in the response (RFC 9207)');
    t.equal(callback.searchParams.get('state'), session.expectedState());
    await session.finishAuth(callback);
    t.ok(session.tokens()?.access_token, 'tokens obtained');

    // 3. tools
    const client = await session.connect();
    t.teardown(() => client.close());
    t.equal(client.serverName(), 'ledger-mcp');
    const listed = await client.listTools();
    const tools = listed.map((x) => x.name);
    t.same(tools, GRANTED_TOOLS, 'tools/list: granted areas, deterministic order');
    t.same(tools.slice(0, 3), ['get_chart_of_accounts', 'list_tax_codes', 'list_changes'], 'deterministic order');
    t.ok(['create_vendor', 'create_bill', 'approve_bill'].every((n) => tools.includes(n)));
    t.notOk(
      tools.some((n) => ['list_bank_accounts', 'list_bank_transactions'].includes(n)),
      'no bank tools without bank access (vendor bank accounts are contacts)',
    );
    t.equal(listed.find((x) => x.name === 'approve_bill')!.annotations?.destructiveHint, true);
    t.equal(listed.find((x) => x.name === 'search_vendors')!.annotations?.readOnlyHint, true);

    const flow = await billFlow((name, args) => client.callTool(name, args), adapter.label);
    const text = (await client.callTool('get_bill', { id: flow.billId })).content as { type: string; text: string }[];
    t.match(text[0]!.text, new RegExp(`^Bill ${flow.billId}`), 'a short text beside the structured content');

    // ledger errors come back as tool errors with the ledger's code
    const missing = await client.callTool('get_bill', { id: 999_999_999 });
    t.equal(missing.isError, true);
    t.equal((missing.structuredContent as { error: { code: string } }).error.code, 'not_found');
    const unknownVendor = await client.callTool('create_bill', {
      vendornumber: 'NO-SUCH-VENDOR',
      invDate: '2026-01-15',
      lines: [{ account: '4000', amount: 1 }],
    });
    t.equal((unknownVendor.structuredContent as { error: { code: string } }).error.code, 'vc_not_found');

    // a customer invoice with items: created as a draft, approved, printed as PDF, e-mailed to the customer
    const invoice = await invoiceFlow(
      (name, args) => client.callTool(name, args),
      (uri) => client.readResource(uri),
      adapter.label,
    );
    t.equal(
      invoice.createdText,
      `Created invoice ${invoice.invoiceId} as a draft.`,
      'create_invoice: a draft for review',
    );
    t.match(
      invoice.approved,
      { id: invoice.invoiceId, status: 'posted' },
      'update_invoice with pending "0": approved and posted',
    );
    t.match(invoice.approved.qr_reference, /^\d{27}$|^RF/, 'posting gave it its payment reference');
    t.equal(
      invoice.pdf.mimeType,
      'application/pdf',
      'get_invoice_pdf: a link to the PDF resource, read with resources/read',
    );
    t.equal(invoice.pdf.uri, `ledger://${demo.dataset}/invoices/customer/${invoice.invoiceId}/pdf`);
    t.equal(invoice.pdf.bytes.subarray(0, 5).toString(), '%PDF-', 'the blob is the PDF');
    t.equal(invoice.mailed.status, 'queued', 'email_invoice: queued');
    // the person confirmed each consequential write (support/mcpClients.ts answers yes), as docs/mcp.md says
    const asked = confirmationsAsked.splice(0);
    t.match(
      asked,
      [/approve and post bill .* from /, /post customer invoice /, /e-mail invoice /],
      'the person was asked for each',
    );
    t.match(invoice.mailed.message_id, /@/, 'with its Message-ID');
    const gotInvoice = (await client.callTool('get_invoice', { id: invoice.invoiceId })).structuredContent as {
      id: number;
      kind: string;
      items: unknown[];
    };
    t.match(
      gotInvoice,
      { id: invoice.invoiceId, kind: 'invoice' },
      'get_invoice: the invoice with items, kind "invoice"',
    );
    t.equal(gotInvoice.items.length, 2, 'with its two items');
    t.equal(
      invoice.arTransaction.text,
      `Created AR transaction ${invoice.arTransaction.id} as posted.`,
      'create_invoice with lines: an AR transaction',
    );
    t.match(
      invoice.arTransaction.read,
      { id: invoice.arTransaction.id, kind: 'transaction', status: 'posted', grossAmount: 200 },
      'get_invoice reads it, kind "transaction"',
    );

    // the e-mail arrives at the SMTP server: to the customer, the invoice PDF attached
    const deadline = Date.now() + 30_000;
    while (smtp.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    t.equal(smtp.received.length, 1, 'email_invoice: one message delivered over SMTP');
    const mail = smtp.received[0]!;
    t.same(mail.envelopeTo, [invoice.customerEmail], "to the customer's address");
    t.equal(mail.parsed.messageId, invoice.mailed.message_id, 'the Message-ID email_invoice answered');
    const attachment = mail.parsed.attachments.find((a) => a.mimeType === 'application/pdf');
    t.ok(attachment, 'with the invoice PDF attached');
    t.equal(
      Buffer.from(attachment!.content as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );

    // 4. REST with the API key: the bill exists, is posted, and the audit log names the AI connection
    const api = rest(demo);
    const posted = await api('GET', `/arap/invoice/customer/${invoice.invoiceId}`);
    t.equal(posted.status, 200);
    t.equal(posted.body.status, 'posted', 'REST: the invoice is posted');
    t.equal(posted.body.customer_id, invoice.customerId);
    t.same(
      posted.body.items.map((i: { description: string; amount: number }) => [i.description, i.amount]),
      [
        ['Consulting', 450],
        ['Travel flat rate', 80.5],
      ],
      'with its two items',
    );
    t.match(posted.body.qr_reference, /\S/, 'and its payment reference');
    t.same(
      posted.body.emails.map((e: { to: string }) => e.to),
      [invoice.customerEmail],
      "the message goes to the customer's e-mail address",
    );
    const bill = await api('GET', `/arap/transaction/vendor/${flow.billId}`);
    t.equal(bill.status, 200);
    t.equal(bill.body.status, 'posted', 'REST: the bill is posted');
    t.equal(bill.body.documentNumber, flow.documentNumber);
    t.equal(bill.body.vendor_id, flow.vendorId);
    const audit = await api('GET', '/system/audit?limit=100');
    const viaAi = audit.body.filter((e: { via: string }) => e.via === 'ai_connection');
    t.ok(
      viaAi.some((e: { entity_id: number }) => e.entity_id === flow.billId),
      'the bill changes are audited',
    );
    t.ok(viaAi.length >= 3, 'vendor, bill and approval');
    t.ok(
      viaAi.every((e: { via_text: string }) => e.via_text === `via AI connection (${adapter.clientName})`),
      'naming the AI connection',
    );
    t.ok(
      viaAi.every((e: { user_email: string }) => e.user_email === demo.user.email),
      'against the person who connected',
    );

    // 5. refresh rotates both tokens
    const before = session.tokens()!;
    const refresh = (refreshToken: string) =>
      tokenRequest(stack.apiUrl, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: clientId!,
        resource: mcpUrl.toString(),
      });
    const refreshed = await refresh(before.refresh_token!);
    t.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    t.not(refreshed.body.refresh_token, before.refresh_token, 'new refresh token');
    t.not(refreshed.body.access_token, before.access_token, 'new access token');
    session.setTokens({ ...before, ...(refreshed.body as object) } as typeof before);
    const afterRefresh = await client.callTool('search_vendors', { name: `${adapter.label} Supplies` });
    t.equal((afterRefresh.structuredContent as { vendors: unknown[] }).vendors.length, 1, 'the new access token works');

    // 6. a token is bound to its company's MCP URL
    const elsewhere = await mcpPost(other.mcp_url, refreshed.body.access_token as string, {
      id: 1,
      method: 'tools/list',
    });
    t.equal(elsewhere.status, 401, "another dataset's MCP URL refuses the token");
    t.match(elsewhere.headers.get('www-authenticate') ?? '', /error="invalid_token"/);

    // 7. the connection ends; the next MCP request is refused, and the client sees it
    if (adapter.ending === 'disconnect') await disconnect(t, demo, browser, adapter);
    else await reuseRefreshToken(t, refresh, before.refresh_token!, refreshed.body.refresh_token as string);
    const after = await mcpPost(mcpUrl.toString(), session.tokens()!.access_token, { id: 2, method: 'tools/list' });
    t.equal(after.status, 401, 'the next MCP request is refused, even with the newest access token');
    t.match(after.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    await t.rejects(client.listTools(), 'and the client sees it');
  });
}

/** System → Management → AI connections: the owner disconnects the assistant. */
async function disconnect(t: Test, demo: DemoCompany, browser: Browser, adapter: McpClientAdapter): Promise<void> {
  const management = await browser.request('GET', `/management/${demo.dataset}/ai-connections`);
  t.equal(management.status, 200);
  t.ok(management.html.includes(adapter.clientName), 'the connection is listed');
  const form = parseForms(management.html).find((f) => /\/ai-connections\/[^/]+\/disconnect$/.test(f.action));
  t.ok(form, 'a Disconnect button');
  const done = await browser.submit(management, (f) => f === form || f.action === form!.action, {});
  t.ok(done.status < 400, `disconnect answered ${done.status}`);
}

/** Presenting the rotated (old) refresh token again ends the whole connection. */
async function reuseRefreshToken(
  t: Test,
  refresh: (token: string) => ReturnType<typeof tokenRequest>,
  oldToken: string,
  newestToken: string,
): Promise<void> {
  const reuse = await refresh(oldToken);
  t.equal(reuse.status, 400);
  t.equal(reuse.body.error, 'invalid_grant');
  const newest = await refresh(newestToken);
  t.equal(newest.body.error, 'invalid_grant', 'and so is the newest refresh token');
}
