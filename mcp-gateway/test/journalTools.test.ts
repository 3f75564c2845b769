/**
 * The journal tools (list_fiscal_years, list_journal_entries, get_journal_entry,
 * list_ledger_lines, create_journal_entry, update_journal_entry) in a real gateway on a real
 * ledger, called with the official MCP client v2: a write grant books and reads, a read grant
 * sees the read tools only, ledger refusals come back as tool errors with the ledger's code.
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

async function mcpClient(t: { teardown(fn: () => unknown): void }, url: string, token: string) {
  const client = new Client({ name: 'journal-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
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

const READ_TOOLS = ['list_fiscal_years', 'list_journal_entries', 'get_journal_entry', 'list_ledger_lines'];
const WRITE_TOOLS = ['create_journal_entry', 'update_journal_entry'];

t.test('journal tools through the gateway', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  // posting, payments and e-mails run without asking the person here (confirmation.test.ts tests the question)
  t.equal((await rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);

  t.test('accounting write: book a draft, post it by update, read it back, the ledger and the years', async (t) => {
    const { resource, tokens } = await connect(stack, company, {
      choices: { accounting: 'write', invoices: 'none', contacts: 'none', bank: 'none', documents: 'none' },
    });
    const { client, call } = await mcpClient(t, resource, tokens.access_token);
    const names = (await client.listTools()).tools.map((x) => x.name);
    t.ok(
      [...READ_TOOLS, ...WRITE_TOOLS].every((n) => names.includes(n)),
      'all six journal tools listed',
    );
    t.same(
      names.filter((n) => [...READ_TOOLS, ...WRITE_TOOLS].includes(n)),
      [...READ_TOOLS, ...WRITE_TOOLS],
      'in catalogue order',
    );
    const listed = (await client.listTools()).tools;
    t.equal(listed.find((x) => x.name === 'create_journal_entry')!.annotations?.destructiveHint, false);
    t.equal(listed.find((x) => x.name === 'update_journal_entry')!.annotations?.destructiveHint, true);

    const entry = {
      transdate: '2024-03-15',
      description: 'Owner contribution',
      lines: [
        { account: '1020', debit: 2500 },
        { account: '2800', credit: 2500 },
      ],
    };
    const created = await call('create_journal_entry', entry);
    const id = ok(created).id as number;
    t.equal(created.content?.[0]?.text, `Created journal entry ${id} as a draft.`);
    const updated = await call('update_journal_entry', { id, ...entry, pending: '0' });
    t.match(ok(updated), { id, status: 'posted', reference: 'GL-000001' });
    t.equal(updated.content?.[0]?.text, `Updated journal entry ${id} (posted).`);

    const got = ok(await call('get_journal_entry', { id }));
    t.same(
      got.lines.map((l: { account: string; debit: number; credit: number }) => [l.account, l.debit, l.credit]),
      [
        ['1020', 2500, 0],
        ['2800', 0, 2500],
      ],
    );
    const list = await call('list_journal_entries', { from: '2024-01-01', to: '2024-12-31' });
    t.same(
      ok(list).journal_entries.map((e: { id: number }) => e.id),
      [id],
    );
    t.equal(list.content?.[0]?.text, 'Found 1 journal entry.');
    t.equal(
      (await call('list_journal_entries', { from: '2025-01-01', to: '2025-01-02' })).content?.[0]?.text,
      'Found 0 journal entries.',
    );

    const ledger = await call('list_ledger_lines', { account: '1020', from: '2024-01-01' });
    t.match(ok(ledger), {
      account: '1020',
      opening: 0,
      closing: 2500,
      total: 1,
      lines: [{ debit: 2500, balance: 2500, source: { kind: 'journal_entry', id, number: 'GL-000001' } }],
    });
    t.equal(ledger.content?.[0]?.text, 'Account 1020: opening 0, 1 line of 1, closing 2500.');

    const years = ok(await call('list_fiscal_years', {}));
    t.match(years.fiscal_years[0], { year: 2024, start: '2024-01-01', end: '2024-12-31', closed: false });

    const unbalanced = await call('create_journal_entry', {
      transdate: '2024-03-16',
      lines: [
        { account: '1020', debit: 10 },
        { account: '2800', credit: 9 },
      ],
    });
    t.equal(unbalanced.isError, true);
    t.equal(unbalanced.structuredContent?.error.code, 'unbalanced');
    t.match(unbalanced.content?.[0]?.text, /^unbalanced: .*differ by 1\.00 CHF/);
    const posted = await call('update_journal_entry', { id, ...entry });
    t.equal(posted.structuredContent?.error.code, 'conflict', 'a posted entry is not changed');
    const viaRest = await rest('GET', `/gl/transactions/${id}`);
    t.equal(viaRest.body.status, 'posted', 'the same entry over REST');
    const audit = await rest('GET', `/system/audit?entity=journal_entry&entity_id=${id}`);
    t.match(
      audit.body.map((a: { action: string; via: string }) => [a.action, a.via]),
      [
        ['post', 'ai_connection'],
        ['create', 'ai_connection'],
      ],
      'audited as the AI connection',
    );
  });

  t.test('accounting read: the read tools, no write tools; a write call is refused', async (t) => {
    const { resource, tokens } = await connect(stack, company, {
      choices: { accounting: 'read', invoices: 'none', contacts: 'none', bank: 'none', documents: 'none' },
    });
    const { client, call } = await mcpClient(t, resource, tokens.access_token);
    const names = (await client.listTools()).tools.map((x) => x.name);
    t.ok(
      READ_TOOLS.every((n) => names.includes(n)),
      'read tools listed',
    );
    t.notOk(
      WRITE_TOOLS.some((n) => names.includes(n)),
      'write tools hidden',
    );
    t.equal(ok(await call('list_journal_entries', {})).journal_entries.length, 1);
    const refused = await client
      .callTool({ name: 'create_journal_entry', arguments: { transdate: '2024-03-15', lines: [] } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    t.ok(refused instanceof Error, 'the write tool is refused');
    t.equal((await rest('GET', '/gl/transactions')).body.length, 1, 'nothing written');
  });
});
