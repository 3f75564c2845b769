/**
 * End to end, over HTTP against the started processes: every refusal of the MCP endpoint —
 * no token, bad token, foreign Host/Origin, oversized body, a Read-only grant (write tools
 * hidden, a write call 403 insufficient_scope), a clerk's credential (refused at the ledger),
 * and the 121st request in a minute (429).
 */
import t from 'tap';
import { SignJWT } from 'jose';
import { Client, InsufficientScopeError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ALL_SCOPES, INTERNAL_CREDENTIAL, SERVICE_CREDENTIAL } from '@ledger/shared';
import { Browser } from './support/browser.ts';
import { startStack } from './support/processes.ts';
import { connectRaw, mcpPost, registerClient } from './support/rawOAuth.ts';
import { createDemo, person, rest } from './support/scenario.ts';
import { totp } from './support/totp.ts';

t.test('MCP endpoint refusals', async (t) => {
  const stack = await startStack(t);
  const demo = await createDemo(stack);
  const mcpUrl = demo.mcp_url;
  const browser = new Browser(stack.apiUrl);

  t.test('no token: 401 pointing at the protected-resource metadata, with all scopes', async (t) => {
    const res = await mcpPost(mcpUrl, undefined, { id: 1, method: 'tools/list' });
    t.equal(res.status, 401);
    t.equal(
      res.headers.get('www-authenticate'),
      `Bearer resource_metadata="${stack.apiUrl}/.well-known/oauth-protected-resource/mcp/${demo.dataset}", ` +
        `scope="${ALL_SCOPES.join(' ')}"`,
    );
    const meta = await fetch(`${stack.apiUrl}/.well-known/oauth-protected-resource/mcp/${demo.dataset}`);
    t.equal(
      ((await meta.json()) as { resource: string }).resource,
      mcpUrl,
      'the metadata names this MCP URL as the resource',
    );
  });

  t.test('unknown token: 401 invalid_token', async (t) => {
    const res = await mcpPost(mcpUrl, `mcpat_${'x'.repeat(43)}`, { id: 1, method: 'tools/list' });
    t.equal(res.status, 401);
    t.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
    t.match(res.headers.get('www-authenticate') ?? '', /resource_metadata="/);
  });

  // one Read-only connection for the rest: all areas Read, bank none
  const readOnly = await connectRaw(
    stack.apiUrl,
    browser,
    mcpUrl,
    person(demo),
    {
      accounting: 'read',
      invoices: 'read',
      contacts: 'read',
      bank: 'none',
      documents: 'read',
    },
    'Read Only Assistant',
  );
  const token = readOnly.tokens.access_token;
  t.equal(
    readOnly.tokens.scope.split(' ').sort().join(' '),
    'accounting:read contacts:read documents:read invoices:read',
    'granted what the person chose',
  );

  t.test('DNS rebinding protection and body limit', async (t) => {
    // a foreign Origin without a token is refused; with a valid Bearer token it is a browser client
    const badOrigin = await mcpPost(mcpUrl, undefined, { id: 1, method: 'ping' }, { origin: 'https://evil.example' });
    t.equal(badOrigin.status, 403, 'foreign Origin without a token');
    const browserClient = await mcpPost(
      mcpUrl,
      token,
      { id: 1, method: 'ping' },
      { origin: 'https://inspector.example' },
    );
    t.equal(browserClient.status, 200, 'foreign Origin with a valid token');
    t.equal(browserClient.headers.get('access-control-allow-origin'), 'https://inspector.example');
    const badToken = await mcpPost(
      mcpUrl,
      'not-a-token',
      { id: 1, method: 'ping' },
      { origin: 'https://inspector.example' },
    );
    t.equal(badToken.status, 401, 'foreign Origin with an invalid token: the token is refused, as from anywhere');
    t.match(
      badToken.headers.get('access-control-expose-headers'),
      /WWW-Authenticate/,
      'the browser client may read the challenge',
    );
    const port = new URL(stack.apiUrl).port;
    const badHost = await new Promise<number>((resolve, reject) => {
      // fetch does not let a caller set Host; use node:http
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: new URL(mcpUrl).pathname,
            method: 'POST',
            headers: {
              host: `rebind.example:${port}`,
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      }, reject);
    });
    t.equal(badHost, 403, 'foreign Host');
    const big = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
    });
    t.equal(big.status, 413, 'oversized body');
  });

  t.test('Read-only grant: write tools hidden, a write call gets 403 insufficient_scope', async (t) => {
    const client = new Client({ name: 'read-only', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    t.teardown(() => client.close());
    const names = (await client.listTools()).tools.map((x) => x.name);
    t.same(
      names,
      [
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
        'list_bills',
        'get_bill',
        'aging_report',
        'list_services',
        'list_workstation',
        'list_quotes',
        'list_recurring_invoices',
        'get_invoice_pdf',
        'search_vendors',
        'get_vendor',
        'search_customers',
        'get_customer',
        'list_vendor_bank_accounts',
        'list_documents',
        'get_document',
        'list_inbox',
      ],
      'only read tools',
    );

    const raw = await mcpPost(mcpUrl, token, {
      id: 7,
      method: 'tools/call',
      params: { name: 'create_vendor', arguments: { name: 'Nope AG' } },
    });
    t.equal(raw.status, 403);
    const challenge = raw.headers.get('www-authenticate') ?? '';
    t.match(challenge, /^Bearer error="insufficient_scope"/);
    t.match(challenge, /scope="contacts:write"/, 'naming the scope needed');
    t.match(
      challenge,
      new RegExp(`resource_metadata="${stack.apiUrl}/.well-known/oauth-protected-resource/mcp/${demo.dataset}"`),
    );

    const viaClient = await client
      .callTool({
        name: 'approve_bill',
        arguments: { id: 1, invDate: '2026-01-01', lines: [{ account: '4000', amount: 1 }] },
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    t.ok(viaClient instanceof InsufficientScopeError, 'the official client reports insufficient scope');
    const vendors = await rest(demo)('GET', '/arap/vendor?name=Nope');
    t.same(vendors.body, [], 'nothing was written');
  });

  t.test("a clerk's role blocks the tools even with the scope", async (t) => {
    // Only owners and admins can connect, so a clerk connection cannot come from the OAuth
    // flow. Proven at the ledger with a service credential signed (with the gateway's key,
    // generated by this test) for a clerk with every scope — refused outright, as for a
    // person demoted after connecting — and through the endpoint list the gateway's
    // tools/list filter uses (role permissions ∩ scopes).
    const email = `clerk-${Date.now()}@e2e.example`;
    const password = 'clerk-password-123';
    const user = JSON.parse(
      await stack.ledgerCli(['user', 'create', email, '--name', 'E2E Clerk', '--password-stdin', '--json'], password),
    ) as { id: number; totp_secret: string };
    await stack.ledgerCli(['member', 'add', demo.dataset, email, '--role', 'clerk']);

    const draft = await rest(demo)('POST', '/arap/transaction/vendor', await draftBill(demo));
    t.equal(draft.status, 201, JSON.stringify(draft.body));

    const now = Math.floor(Date.now() / 1000);
    const credential = await new SignJWT({
      dataset: demo.dataset,
      conn: 'e2e-clerk',
      scope: ALL_SCOPES.join(' '),
      client_name: 'Clerk Assistant',
    })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuer(SERVICE_CREDENTIAL.issuer)
      .setAudience(SERVICE_CREDENTIAL.audience)
      .setSubject(String(user.id))
      .setIssuedAt(now)
      .setExpirationTime(now + 30)
      .sign(stack.gatewayKey);
    const approve = await fetch(
      `${stack.ledgerUrl}/client/${demo.dataset}/arap/transaction/vendor/${draft.body.id}/approve`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...(await draftBill(demo)), pending: '0' }),
      },
    );
    const body = (await approve.json()) as { error: { code: string; message: string; reason?: string } };
    t.equal(approve.status, 403, 'approve refused for the clerk');
    // only owners and admins may act through an AI connection at all: the ledger checks that
    // on every service-credential request, before the role's permissions
    t.equal(body.error.code, 'connection_not_allowed');
    t.equal(body.error.reason, 'role_lost');
    const record = await fetch(`${stack.ledgerUrl}/client/${demo.dataset}/arap/vendor?name=x`, {
      headers: { authorization: `Bearer ${credential}` },
    });
    t.equal(record.status, 403, 'nor anything else the role would allow');

    const internal = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuer(INTERNAL_CREDENTIAL.issuer)
      .setAudience(INTERNAL_CREDENTIAL.audience)
      .setSubject(INTERNAL_CREDENTIAL.subject)
      .setIssuedAt(now)
      .setExpirationTime(now + 30)
      .sign(stack.gatewayKey);
    const listed = await fetch(
      `${stack.ledgerUrl}/internal/companies/${demo.dataset}/members/${user.id}/endpoints?scope=` +
        `${encodeURIComponent(ALL_SCOPES.join(' '))}`,
      {
        headers: { authorization: `Bearer ${internal}` },
      },
    );
    const endpoints = ((await listed.json()) as { endpoints: string[] }).endpoints;
    t.notOk(
      endpoints.includes('POST /arap/transaction/vendor/:id/approve'),
      'approve_bill would not be listed for a clerk',
    );
    t.ok(endpoints.includes('POST /arap/transaction/vendor'), 'create_bill would');

    // and the clerk cannot connect an assistant at all
    const client = await registerClient(stack.apiUrl, 'Clerk Tool');
    const url = new URL(`${stack.apiUrl}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: mcpUrl,
      state: 's',
    }).toString();
    const clerkBrowser = new Browser(stack.apiUrl);
    const signIn = await clerkBrowser.request('GET', url.toString());
    const consent = await clerkBrowser.submit(signIn, (f) => f.fields.some((x) => x.type === 'password'), {
      email,
      password,
      totp: totp(user.totp_secret),
    });
    t.match(consent.html, /id="not-allowed"/, 'the consent page explains that only owners and admins can connect');
  });

  t.test('121 requests in a minute on one connection: 429 with Retry-After', async (t) => {
    const fresh = await connectRaw(stack.apiUrl, browser, mcpUrl, person(demo), { contacts: 'read' }, 'Busy Assistant');
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await mcpPost(mcpUrl, fresh.tokens.access_token, { id: i, method: 'ping' });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    t.ok(
      statuses.every((s) => s === 200),
      `120 requests pass (${[...new Set(statuses)].join(',')})`,
    );
    const over = await mcpPost(mcpUrl, fresh.tokens.access_token, { id: 121, method: 'ping' });
    t.equal(over.status, 429, 'the 121st is refused');
    const retryAfter = Number(over.headers.get('retry-after'));
    t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s`);
    const other = await mcpPost(mcpUrl, token, { id: 1, method: 'ping' });
    t.equal(other.status, 200, 'other connections are not affected');
  });
});

async function draftBill(demo: { base_url: string; api_key: string }) {
  const api = rest(demo as Parameters<typeof rest>[0]);
  const accounts = (await api('GET', '/system/chart/accounts')).body as { accno: string; link: string }[];
  const vendors = (await api('GET', '/arap/vendor')).body as { id: number }[];
  const expense = accounts.find((a) => a.link.split(':').includes('AP_amount'))!;
  return {
    vendor_id: vendors[0]!.id,
    documentNumber: 'CLERK-1',
    invDate: new Date().toISOString().slice(0, 10),
    lines: [{ account: expense.accno, amount: 50 }],
  };
}
