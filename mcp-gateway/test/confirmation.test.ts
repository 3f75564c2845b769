/**
 * The person confirms what an assistant books (src/mcp/confirm.ts, docs/mcp.md
 * "Confirmation"), through a real gateway on a real ledger with the official SDK clients of
 * both eras: v1 (@modelcontextprotocol/sdk, 2025-era, elicitation/create on the call's
 * stream) and v2 (@modelcontextprotocol/client, 2026-07-28, input_required and a retry).
 * Accept posts and the audit entry records how; decline leaves a draft or does nothing; a
 * client that cannot be asked gets the safe path; the company setting skips the question; an
 * answer without the state minted for the call is not taken.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { contracts } from '@ledger/shared';
import { asDrafts, consequenceOf, elicitsForms, mayAsk } from '../src/mcp/confirm.ts';
import { findTool } from '../src/mcp/tools/catalogue.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text?: string }[];
};
type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean> };
type Teardown = { teardown(fn: () => unknown): void };

interface Asked {
  questions: string[];
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

const GRANT = { invoices: 'write', accounting: 'read', contacts: 'read' };

/** A connected client of `era`; `answer` (when given) is declared as elicitation and answers every question. */
async function client(
  t: Teardown,
  resource: string,
  token: string,
  era: '2025' | '2026',
  answer?: Answer,
): Promise<Asked> {
  const questions: string[] = [];
  const headers = { Authorization: `Bearer ${token}` };
  if (era === '2025') {
    const c = new ClientV1(
      { name: 'confirm-test-v1', version: '1' },
      { capabilities: answer ? { elicitation: {} } : {} },
    );
    if (answer)
      c.setRequestHandler(ElicitRequestSchema, async (req) => {
        questions.push(req.params.message);
        return answer;
      });
    await c.connect(new TransportV1(new URL(resource), { requestInit: { headers } }));
    t.teardown(() => c.close());
    return { questions, call: async (name, args) => (await c.callTool({ name, arguments: args })) as ToolResult };
  }
  const c = new Client(
    { name: 'confirm-test-v2', version: '1' },
    { capabilities: answer ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: 'auto' } },
  );
  if (answer)
    c.setRequestHandler('elicitation/create', async (req) => {
      questions.push(req.params.message);
      return answer;
    });
  await c.connect(new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers } }));
  t.teardown(() => c.close());
  return { questions, call: async (name, args) => (await c.callTool({ name, arguments: args })) as ToolResult };
}

async function setup(t: Teardown) {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const vendor = (await rest('POST', '/arap/vendor', { name: 'Acme Supplies AG' })).body;
  let n = 0;
  /** a draft bill made over REST, and the input approve_bill needs for it */
  const draftBill = async (amount = 300) => {
    const bill = {
      vendor_id: vendor.id,
      documentNumber: `R-${++n}`,
      invDate: '2026-03-02',
      lines: [{ account: '6500', amount }],
    };
    const res = await rest('POST', '/arap/transaction/vendor', { type: 'transaction', ...bill });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return { id: res.body.id as number, bill };
  };
  const status = async (id: number) => (await rest('GET', `/arap/document/vendor/${id}`)).body.status as string;
  const { resource, tokens } = await connect(stack, company, { choices: GRANT });
  /** the audit details of the connection's writes of `entity` `id` */
  const audit = async (entity: string, id: number) =>
    (await stack.ledger
      .db('audit_log')
      .where({ company_id: company.company.id, entity, entity_id: String(id), via: 'ai_connection' })
      .orderBy('id')
      .select('action', 'details')) as { action: string; details: Record<string, unknown> | null }[];
  return { stack, company, rest, vendor, draftBill, status, resource, token: tokens.access_token, audit };
}

t.test(
  "which writes need the person (by the contract's declared effect), and what the safe path sends instead",
  async (t) => {
    const tool = (name: string) => findTool(name)!.declaration;
    t.equal(consequenceOf(tool('create_bill'), { lines: [] }), undefined, 'a draft needs no confirmation');
    t.equal(consequenceOf(tool('create_bill'), { pending: '0' }), 'post');
    t.equal(consequenceOf(tool('update_invoice'), { pending: 0 }), 'post');
    const batch = { ...tool('create_journal_entry'), contract: contracts.createJournalEntries };
    t.equal(consequenceOf(batch, { transactions: [{}, { pending: '0' }] }), 'post', 'a batch');
    t.equal(consequenceOf(tool('list_bills'), { pending: '0' }), undefined);
    t.equal(consequenceOf(tool('approve_bill'), {}), 'approve');
    t.equal(consequenceOf(tool('record_payment'), {}), 'payment');
    t.equal(consequenceOf(tool('email_invoice'), {}), 'email');
    t.equal(consequenceOf(tool('send_reminder'), {}), 'reminder');
    t.equal(consequenceOf(tool('allocate_credit_note'), { vc: 'customer' }), 'allocate', 'a credit note set off');
    t.equal(consequenceOf(tool('run_dunning'), { date: '2026-04-01', dry_run: true }), undefined, 'a dry run reads');
    t.equal(consequenceOf(tool('run_dunning'), { date: '2026-04-01' }), 'dunning', 'a run sends and books fees');
    t.equal(consequenceOf(tool('run_dunning'), { date: '2026-04-01', dry_run: false }), 'dunning');
    t.equal(consequenceOf(tool('create_vendor'), { pending: '0' }), undefined, "a contract whose effect is 'none'");
    t.ok(mayAsk(tool('update_bill')), 'an update may re-post: the ledger decides');
    t.notOk(mayAsk(tool('create_vendor')));
    t.same(asDrafts({ pending: '0', lines: [{ account: '6500' }] }), { lines: [{ account: '6500' }] });
    t.same(asDrafts({ transactions: [{ pending: '0', transdate: 'x' }, { transdate: 'y' }] }), {
      transactions: [{ transdate: 'x' }, { transdate: 'y' }],
    });
    t.ok(elicitsForms({ elicitation: {} }), 'elicitation: {} means form');
    t.ok(elicitsForms({ elicitation: { form: {}, url: {} } }));
    t.notOk(elicitsForms({ elicitation: { url: {} } }), 'URL mode only: cannot answer a form');
    t.notOk(elicitsForms({}));
  },
);

t.test(
  '2025-era client with elicitation: asked on the call stream; accept posts, decline leaves a draft',
  async (t) => {
    const s = await setup(t);
    const yes = await client(t, s.resource, s.token, '2025', { action: 'accept', content: { confirm: true } });
    const { id, bill } = await s.draftBill(300);
    const approved = await yes.call('approve_bill', { id, ...bill });
    t.notOk(approved.isError, JSON.stringify(approved));
    t.equal(yes.questions.length, 1, 'the person was asked once');
    t.match(
      yes.questions[0],
      /approve and post bill R-1 from Acme Supplies AG, 300\.00 CHF/,
      'document, party, amount',
    );
    t.match(yes.questions[0], /only be reversed/, 'and what will happen');
    t.match(approved.content?.[0]?.text, `Bill ${id} approved and posted.`);
    t.equal(await s.status(id), 'posted', 'the ledger posted it');
    t.match(
      await s.audit('vendor_transaction', id),
      [{ details: { confirmation: 'elicitation' } }],
      'audited as confirmed',
    );

    const no = await client(t, s.resource, s.token, '2025', { action: 'decline' });
    const declined = await no.call('create_bill', {
      vendor_id: s.vendor.id,
      documentNumber: 'R-99',
      invDate: '2026-03-03',
      pending: '0',
      lines: [
        { account: '6500', amount: 120.5 },
        { account: '6500', amount: 9.5 },
      ],
    });
    t.notOk(declined.isError);
    t.match(
      no.questions[0],
      /post a new vendor bill R-99 from Acme Supplies AG, 130\.00 CHF \(net 130\.00, tax 0\.00\), dated 2026-03-03/,
      "the ledger's figures, the currency named also for CHF",
    );
    t.match(
      declined.content?.[0]?.text,
      /^Not posted: the person declined\. Saved as draft \d+; it waits in the app's workstation/,
    );
    const draftId = declined.structuredContent?.id as number;
    t.match(declined.structuredContent?.confirmation, {
      outcome: 'draft',
      reason: 'declined',
      waits_in: 'workstation',
    });
    t.equal(await s.status(draftId), 'draft', 'a draft in the ledger');
    const waiting = (await s.rest('GET', '/arap/workstation?vc=vendor')).body as { id: number }[];
    t.ok(JSON.stringify(waiting).includes(`"id":${draftId}`), 'listed in the workstation');
  },
);

t.test('2025-era client without elicitation: the safe path, nothing posted', async (t) => {
  const s = await setup(t);
  const plain = await client(t, s.resource, s.token, '2025');
  const { id, bill } = await s.draftBill();
  const result = await plain.call('approve_bill', { id, ...bill });
  t.notOk(result.isError);
  t.match(result.content?.[0]?.text, `Bill ${id} was not approved and stays a draft in the app's workstation`);
  t.match(result.content?.[0]?.text, /cannot ask the person/);
  t.same(result.structuredContent?.confirmation, { outcome: 'not_done', reason: 'not_asked' });
  t.equal(await s.status(id), 'draft');
  const paid = await plain.call('record_payment', {
    vc: 'vendor',
    document_id: id,
    date: '2026-03-05',
    amount: 10,
    account: '1020',
  });
  t.match(paid.content?.[0]?.text, /^The payment was not recorded/);
  t.equal((await s.rest('GET', `/arap/document/vendor/${id}`)).body.paid, 0, 'no payment');
});

t.test('2026-07-28 client: input_required round trip; accept records, decline does not', async (t) => {
  const s = await setup(t);
  const { id, bill } = await s.draftBill(250);
  // posted over REST, so a payment can be recorded on it
  t.equal(
    (await s.rest('POST', `/arap/transaction/vendor/${id}/approve`, { type: 'transaction', ...bill, pending: '0' }))
      .status,
    200,
  );

  const no = await client(t, s.resource, s.token, '2026', { action: 'decline' });
  const payment = { vc: 'vendor', document_id: id, date: '2026-03-10', amount: 100, account: '1020' };
  const declined = await no.call('record_payment', payment);
  t.match(no.questions[0], /record a payment of 100\.00 CHF paid to Acme Supplies AG on bill R-1/);
  t.match(declined.content?.[0]?.text, /^The payment was not recorded: the person declined/);
  t.equal((await s.rest('GET', `/arap/document/vendor/${id}`)).body.paid, 0);

  const yes = await client(t, s.resource, s.token, '2026', { action: 'accept', content: { confirm: true } });
  const recorded = await yes.call('record_payment', payment);
  t.notOk(recorded.isError, JSON.stringify(recorded));
  t.equal(yes.questions.length, 1);
  t.match(recorded.content?.[0]?.text, /^Recorded payment \d+ of 100 on bill/);
  t.equal((await s.rest('GET', `/arap/document/vendor/${id}`)).body.paid, 100, 'the ledger recorded it');
  const paymentId = recorded.structuredContent?.id as number;
  t.match(await s.audit('vendor_payment', paymentId), [{ details: { confirmation: 'input_required' } }]);

  // accept with "no" in the form counts as no
  const formNo = await client(t, s.resource, s.token, '2026', { action: 'accept', content: { confirm: false } });
  const second = await s.draftBill(40);
  const kept = await formNo.call('approve_bill', { id: second.id, ...second.bill });
  t.match(kept.content?.[0]?.text, /was not approved and stays a draft.*the person declined/);
  t.equal(await s.status(second.id), 'draft');
});

t.test('2026-07-28: an answer counts only with the state minted for the same call', async (t) => {
  const s = await setup(t);
  const { id, bill } = await s.draftBill();
  const post = (params: Record<string, unknown>) =>
    fetch(s.resource, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${s.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'approve_bill',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'approve_bill',
          arguments: { id, ...bill },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
          ...params,
        },
      }),
    }).then(async (r) => JSON.parse((await r.text()).replace(/^(event: .*\n)?data: /m, '').split('\n')[0]!));
  const accept = { confirm: { action: 'accept', content: { confirm: true } } };
  const first = await post({});
  t.equal(first.result?.resultType, 'input_required', JSON.stringify(first));
  t.match(first.result.inputRequests.confirm, { method: 'elicitation/create', params: { message: /bill R-1/ } });
  const state = first.result.requestState as string;

  const forged = await post({ inputResponses: accept, requestState: 'c1.forged' });
  t.equal(forged.result?.resultType, 'input_required', 'a forged state: asked again');
  t.equal(await s.status(id), 'draft', 'not posted');
  const answered = await post({ inputResponses: accept, requestState: state });
  t.equal(answered.result?.resultType, 'complete', JSON.stringify(answered));
  t.equal(await s.status(id), 'posted', 'the same call with its state and the answer posts');
  const again = await s.draftBill();
  const replayed = await fetch(s.resource, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${s.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'approve_bill',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'approve_bill',
        arguments: { id: again.id, ...again.bill },
        inputResponses: accept,
        requestState: state,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  }).then(async (r) => r.text());
  t.match(replayed, /input_required/, "another bill with the first call's state and answer: asked again");
  t.equal(await s.status(again.id), 'draft', 'not posted');
});

t.test('company setting on: AI connections post without the question; audited as such', async (t) => {
  const s = await setup(t);
  t.equal((await s.rest('POST', '/system/company', { ai_may_post_without_confirmation: true })).status, 200);
  for (const era of ['2025', '2026'] as const) {
    const plain = await client(t, s.resource, s.token, era);
    const { id, bill } = await s.draftBill();
    const approved = await plain.call('approve_bill', { id, ...bill });
    t.match(approved.content?.[0]?.text, `Bill ${id} approved and posted.`, `${era}: posted directly`);
    t.equal(await s.status(id), 'posted');
    t.match(await s.audit('vendor_transaction', id), [{ details: { confirmation: 'company_setting' } }]);
  }
});

/** A raw 2026-07-28 tools/call of `name` with `params` besides its arguments; the JSON-RPC answer. */
function rawCall(s: { resource: string; token: string }, id: number, name: string, params: Record<string, unknown>) {
  return fetch(s.resource, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${s.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
        ...params,
      },
    }),
  }).then(async (r) => JSON.parse((await r.text()).replace(/^(event: .*\n)?data: /m, '').split('\n')[0]!));
}

t.test("the question shows the ledger's preview: items priced by a service, with their tax", async (t) => {
  const s = await setup(t);
  const customer = (await s.rest('POST', '/arap/customer', { name: 'Globex Corp' })).body;
  const service = await s.rest('POST', '/arap/services', {
    description: 'Support hour',
    unit: 'h',
    price: 150,
    income_account: '3400',
    taxAccount: '2200',
  });
  t.equal(service.status, 201);
  const no = await client(t, s.resource, s.token, '2025', { action: 'decline' });
  const declined = await no.call('create_invoice', {
    customer_id: customer.id,
    invDate: '2026-03-15',
    pending: '0',
    items: [{ service_id: service.body.id, quantity: 2 }],
  });
  t.notOk(declined.isError, JSON.stringify(declined));
  // 2 × 150.00 from the service, 8.1 % tax: the gross is posted, so the gross is asked for
  t.match(
    no.questions[0],
    new RegExp(
      String.raw`post a new customer invoice AR-\d+ for Globex Corp, 324\.30 CHF \(net 300\.00, tax 24\.30\), ` +
        String.raw`dated 2026-03-15, booked to accounts 3400, 2200, 1100\.`,
    ),
  );
  t.equal(declined.structuredContent?.confirmation?.outcome, 'draft', 'declined: a draft');
});

t.test(
  '2026-07-28: a confirmed answer replayed with a new request id is asked again, never booked twice',
  async (t) => {
    const s = await setup(t);
    const bill = {
      vendor_id: s.vendor.id,
      documentNumber: 'R-7',
      invDate: '2026-03-04',
      pending: '0',
      lines: [{ account: '6500', amount: 80 }],
    };
    const accept = { confirm: { action: 'accept', content: { confirm: true } } };
    const bills = async () =>
      ((await s.rest('GET', '/arap/documents/vendor')).body as { documentNumber?: string }[]).filter(
        (d) => d.documentNumber === 'R-7',
      ).length;
    const first = await rawCall(s, 1, 'create_bill', { arguments: bill });
    t.equal(first.result?.resultType, 'input_required', JSON.stringify(first));
    t.match(first.result.inputRequests.confirm.params.message, /80\.00 CHF/);
    const state = first.result.requestState as string;
    const answered = await rawCall(s, 2, 'create_bill', {
      arguments: bill,
      inputResponses: accept,
      requestState: state,
    });
    t.equal(answered.result?.resultType, 'complete', JSON.stringify(answered));
    t.equal(await bills(), 1, 'posted once');
    const replayed = await rawCall(s, 3, 'create_bill', {
      arguments: bill,
      inputResponses: accept,
      requestState: state,
    });
    t.equal(replayed.result?.resultType, 'input_required', 'the used confirmation: the person is asked again');
    t.not(replayed.result.requestState, state, 'with a new confirmation');
    t.equal(await bills(), 1, 'still one bill');
  },
);

t.test('through a client: a misspelled field is named, a date names its format', async (t) => {
  const s = await setup(t);
  const c = await client(t, s.resource, s.token, '2026');
  const said = async (args: Record<string, unknown>) => {
    const r = await c.call('create_bill', args).catch((e: Error) => ({ content: [{ type: 'text', text: e.message }] }));
    return r.content?.map((b) => b.text ?? '').join(' ') ?? '';
  };
  const bill = { vendor_id: s.vendor.id, invDate: '2026-11-28', lines: [{ account: '6500', amount: 10 }] };
  const misspelled = await said({ ...bill, lines: [{ acount: '6500', amount: 10 }] });
  t.match(misspelled, 'Field "acount" is not allowed here. (field /lines/0/acount)');
  t.notMatch(misspelled, /must match|additional properties/, 'no schema dump');
  t.match(await said({ ...bill, invDate: '28.11.2026' }), 'must be a date as YYYY-MM-DD');
});
