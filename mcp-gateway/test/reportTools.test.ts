/**
 * The report tools (trial_balance, income_statement, balance_sheet, vat_report) in a real
 * gateway on a real ledger, called with the official MCP client v2 under a Read grant on
 * accounting: each answers what the REST report answers for the same period, with its
 * summary; the write tools of the area are neither listed nor callable.
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

const REPORT_TOOLS = ['trial_balance', 'income_statement', 'balance_sheet', 'vat_report'];

t.test('report tools through the gateway with a Read grant', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);

  // books to report on: a posted sale with output VAT, a posted purchase with input VAT, a payment
  const customer = await rest('POST', '/arap/customer', { name: 'Report Kunde AG' });
  const vendor = await rest('POST', '/arap/vendor', { name: 'Report Lieferant AG' });
  const sale = await rest('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invDate: '2024-03-10',
    pending: '0',
    lines: [{ account: '3400', amount: 1000, taxAccount: '2200' }],
  });
  t.equal(sale.status, 201, JSON.stringify(sale.body));
  const purchase = await rest('POST', '/arap/transaction/vendor', {
    vendor_id: vendor.body.id,
    invDate: '2024-03-12',
    pending: '0',
    lines: [{ account: '4000', amount: 400, taxAccount: '1170' }],
  });
  t.equal(purchase.status, 201, JSON.stringify(purchase.body));
  const paid = await rest('POST', '/arap/payment/customer', {
    document_id: sale.body.id,
    date: '2024-03-20',
    amount: 500,
    account: '1020',
  });
  t.equal(paid.status, 201, JSON.stringify(paid.body));

  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'read', invoices: 'none', contacts: 'none', bank: 'none', documents: 'none' },
  });
  const client = new Client({ name: 'report-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  const listed = (await client.listTools()).tools;
  const names = listed.map((x) => x.name);
  t.same(
    names.filter((n) => REPORT_TOOLS.includes(n)),
    REPORT_TOOLS,
    'the four report tools, in catalogue order',
  );
  t.notOk(
    names.includes('create_journal_entry') || names.includes('update_journal_entry'),
    'no write tools under a Read grant',
  );
  for (const name of REPORT_TOOLS) {
    const tool = listed.find((x) => x.name === name)!;
    t.equal(tool.annotations?.readOnlyHint, true, `${name} is read-only`);
    t.ok(tool.outputSchema, `${name} declares its output schema`);
  }

  const period = { from: '2024-01-01', to: '2024-12-31' };
  const cases: [string, Record<string, string>, string][] = [
    ['trial_balance', period, `/reports/trial_balance?from=${period.from}&to=${period.to}`],
    ['income_statement', period, `/reports/income_statement?from=${period.from}&to=${period.to}`],
    ['balance_sheet', { date: '2024-12-31' }, '/reports/balance_sheet?date=2024-12-31'],
    ['vat_report', period, `/reports/vat?from=${period.from}&to=${period.to}`],
  ];
  for (const [name, args, path] of cases) {
    const result = await call(name, args);
    t.notOk(result.isError, `${name} answers`);
    const viaRest = await rest('GET', path);
    t.equal(viaRest.status, 200);
    t.same(result.structuredContent, viaRest.body, `${name}: the same figures as GET ${path.split('?')[0]}`);
  }

  const trial = (await call('trial_balance', period)).structuredContent!;
  const closing = (accno: string) => trial.accounts.find((a: { accno: string }) => a.accno === accno)?.closing;
  t.equal(closing('3400'), -1000, 'revenue on the credit side');
  t.equal(closing('1020'), 500, 'the payment in the bank');
  const income = await call('income_statement', period);
  t.equal(income.structuredContent!.net_income, 600, 'revenue 1000 − expense 400');
  t.match(income.content?.[0]?.text, /^Net income 2024-01-01 – 2024-12-31: /);
  const sheet = (await call('balance_sheet', { date: '2024-12-31' })).structuredContent!;
  t.equal(sheet.total_assets, sheet.total_liabilities_and_equity, 'assets = liabilities + equity');
  const vat = await call('vat_report', period);
  t.equal(
    vat.structuredContent!.net_due,
    vat.structuredContent!.output.tax - vat.structuredContent!.input.tax,
    'net due = output − input',
  );
  t.ok(
    vat.structuredContent!.output.tax > 0 && vat.structuredContent!.input.tax > 0,
    'output and input tax both there',
  );

  const bad = await call('trial_balance', { from: '2024-12-31', to: '2024-01-01' });
  t.equal(bad.isError, true, 'a period ending before it starts is a tool error');
  t.equal(bad.structuredContent?.error.code, 'invalid_request');

  const refused = await client
    .callTool({ name: 'create_journal_entry', arguments: { transdate: '2024-03-15', lines: [] } })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  t.ok(refused instanceof Error, 'a write tool call is refused');
});
