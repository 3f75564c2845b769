/**
 * The bank tools through the official MCP client on a real gateway and ledger: a Bank: Read
 * connection sees list_bank_accounts and list_bank_transactions (IBANs and counterparties
 * included, docs/assistants.md) and nothing that writes; filters reach the REST API.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { importBankStatement } from './support/bankStatement.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text: string }[];
};

t.test('bank tools over MCP: read only, transactions with IBANs and counterparties', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const statement = await importBankStatement(rest);
  t.equal(statement.accountStatus, 201);
  t.equal(statement.importStatus, 200, JSON.stringify(statement.body));

  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'none', invoices: 'none', contacts: 'none', bank: 'read', documents: 'none' },
  });
  t.equal(tokens.scope, 'bank:read');
  const client = new Client({ name: 'bank-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());

  const tools = (await client.listTools()).tools;
  t.same(
    tools.map((x) => x.name),
    ['list_bank_accounts', 'list_bank_transactions'],
    'the bank area is read only',
  );
  const tool = tools.find((x) => x.name === 'list_bank_transactions')!;
  t.equal(tool.annotations?.readOnlyHint, true);
  t.ok(tool.outputSchema, 'with an output schema');
  t.ok(
    ['account', 'from', 'to', 'status', 'counterparty', 'amount'].every(
      (f) => f in (tool.inputSchema.properties ?? {}),
    ),
    'the filters as input',
  );

  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'list_bank_transactions', arguments: args })) as ToolResult;
  const all = await call({});
  t.notOk(all.isError, JSON.stringify(all));
  t.equal(all.structuredContent!.bank_transactions.length, 7);
  const debit = await call({ counterparty: 'müller', status: 'unmatched' });
  t.same(
    debit.structuredContent!.bank_transactions.map((b: { amount: number; counterparty: string; iban: string }) => [
      b.amount,
      b.counterparty,
      b.iban,
    ]),
    [[-2000, 'Papeterie Müller AG', 'CH5800791123000889012']],
    'counterparty and IBAN included',
  );
  const bad = await call({ status: 'paid' });
  t.equal(bad.isError, true, 'a bad filter is a tool error');
});
