/**
 * The bank tools through the official MCP client on a real gateway and ledger: a Bank: Read
 * connection sees the bank accounts, the transactions (IBANs and counterparties included,
 * docs/assistants.md), the unbooked lines with their proposals and the reconciliation, and
 * nothing that writes; filters reach the REST API. A Bank: Write connection books a line by
 * its proposal, creates and previews rules.
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

t.test('bank tools over MCP: reads, transactions with IBANs and counterparties', async (t) => {
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
    ['list_bank_accounts', 'list_bank_transactions', 'list_unbooked_bank_transactions', 'get_bank_reconciliation'],
    'bank:read offers the reads only',
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

t.test('bank:write over MCP: rules, their preview, booking a line by its proposal, reconciliation', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const statement = await importBankStatement(rest);
  t.equal(statement.importStatus, 200, JSON.stringify(statement.body));
  const { resource, tokens } = await connect(stack, company, {
    // accounting:read lets the gateway read the company's confirmation setting
    choices: { accounting: 'read', invoices: 'none', contacts: 'none', bank: 'write', documents: 'none' },
  });
  t.equal(tokens.scope, 'accounting:read bank:write');
  const client = new Client({ name: 'bank-write-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  const names = (await client.listTools()).tools.map((x) => x.name).filter((n) => n.includes('bank'));
  t.same(names, [
    'list_bank_accounts',
    'list_bank_transactions',
    'list_unbooked_bank_transactions',
    'book_bank_transaction',
    'create_bank_rule',
    'create_bank_rule_from_transaction',
    'preview_bank_rules',
    'get_bank_reconciliation',
  ]);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  const unbooked = await call('list_unbooked_bank_transactions', {});
  t.notOk(unbooked.isError, JSON.stringify(unbooked));
  const lines = unbooked.structuredContent!.bank_transactions as { id: number; amount: number; status: string }[];
  t.ok(lines.length > 0 && lines.every((l) => l.status === 'unmatched'), 'only unbooked lines');
  const debit = lines.find((l) => l.amount === -2000)!;

  const rule = await call('create_bank_rule', {
    name: 'Papeterie',
    conditions: { direction: 'out', counterparty: 'Müller' },
    action: { kind: 'book', account: '6500' },
  });
  t.notOk(rule.isError, JSON.stringify(rule));
  const ruleId = rule.structuredContent!.id as number;
  const preview = await call('preview_bank_rules', {});
  t.match(preview.structuredContent!.bookings, [{ transaction_id: debit.id, rule_id: ruleId, auto: false }]);
  const bad = await call('create_bank_rule', { name: 'x', conditions: {}, action: { kind: 'book', account: '6500' } });
  t.equal(bad.isError, true, 'a rule without condition is refused');

  const line = (await rest('GET', `/bank/transactions/${debit.id}`)).body;
  t.match(line.proposals[0], { kind: 'rule', rule_id: ruleId });

  // a client that cannot ask the person: booking is a posting with no draft, so nothing is booked
  const notAsked = await call('book_bank_transaction', { id: debit.id, proposal: 0, rule_id: ruleId });
  t.notOk(notAsked.isError, JSON.stringify(notAsked));
  t.match(notAsked.content![0]!.text, /Nothing was posted for \d+: this client cannot ask the person/);
  t.equal((await rest('GET', `/bank/transactions/${debit.id}`)).body.status, 'unmatched', 'nothing booked');

  // the company lets assistants post without asking (confirmation.test.ts tests the question)
  t.equal((await rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);
  const booked = await call('book_bank_transaction', { id: debit.id, proposal: 0, rule_id: ruleId });
  t.notOk(booked.isError, JSON.stringify(booked));
  t.match(booked.structuredContent, { id: debit.id, status: 'booked', rule_id: ruleId, account: '6500' });
  t.match(booked.content![0]!.text, /Booked bank line \d+ to account 6500/);

  const accounts = (await rest('GET', '/bank/accounts')).body as { id: number }[];
  const rec = await call('get_bank_reconciliation', { id: accounts[0]!.id });
  t.notOk(rec.isError, JSON.stringify(rec));
  t.match(rec.structuredContent, { statement_balance: Number, ledger_balance: -2000 });
});
