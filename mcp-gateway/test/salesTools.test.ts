/**
 * The sales tools of issue 33 in a real gateway on a real ledger, called with the official MCP
 * clients (2026-07-28, and 2025-era for an allocation): a credit note issued and set against an
 * invoice (allocate_credit_note pays: the person confirms it, a client that cannot ask gets
 * nothing done), a quote made and
 * turned into a draft invoice, and a dunning run — its dry run only reads and is never asked
 * about, sending the reminders books fees and is asked first (the ledger holds it too).
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text: string }[];
};
type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> };

const LEVELS = [
  { days: 5, fee: 10, text: { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Pagare.', en: 'Please pay.' } },
];

t.test('credit notes, quotes and dunning through the gateway', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const customer = (await rest('POST', '/arap/customer', { name: 'Globex Corp', language: 'de' })).body;
  const invoice = async (price: number) => {
    const res = await rest('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customer.id,
      invDate: '2026-03-02',
      terms: 10,
      pending: '0',
      items: [{ description: 'Beratung', quantity: 1, price, account: '3400', taxAccount: '2200' }],
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return (await rest('GET', `/arap/invoice/customer/${res.body.id}`)).body as Record<string, any>;
  };
  const open = async (id: number) => (await rest('GET', `/arap/document/customer/${id}`)).body.open as number;

  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'read', invoices: 'write', contacts: 'read', bank: 'none', documents: 'none' },
  });
  /** A connected client; with `answer` it declares elicitation and answers every question so. */
  const client = async (answer?: Answer) => {
    const questions: string[] = [];
    const c = new Client(
      { name: 'sales-test', version: '1' },
      { capabilities: answer ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: 'auto' } },
    );
    if (answer)
      c.setRequestHandler('elicitation/create', async (req) => {
        questions.push(req.params.message);
        return answer;
      });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => c.close());
    const call = async (name: string, args: Record<string, unknown>) =>
      (await c.callTool({ name, arguments: args })) as ToolResult;
    return { c, questions, call };
  };
  const yes = await client({ action: 'accept', content: { confirm: true } });
  const no = await client({ action: 'decline' });
  const unasked = await client();

  const listed = (await yes.c.listTools()).tools;
  for (const name of [
    'create_credit_note',
    'allocate_credit_note',
    'create_quote',
    'list_quotes',
    'convert_quote',
    'run_dunning',
  ])
    t.ok(
      listed.some((x) => x.name === name),
      `${name} listed`,
    );
  const allocateTool = listed.find((x) => x.name === 'allocate_credit_note')!;
  t.same(allocateTool.inputSchema.required, ['vc', 'id', 'document_id', 'amount']);
  t.match(allocateTool.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: false });

  t.test('a credit note issued, then set against an invoice once the person confirms', async (t) => {
    const first = await invoice(500); // 540.50 with 8.1 % VAT
    const second = await invoice(200); // 216.20
    const issued = await yes.call('create_credit_note', {
      id: first.id,
      date: '2026-03-10',
      reason: 'Rabatt',
      items: [{ description: 'Rabatt', quantity: 1, price: 100, account: '3400', taxAccount: '2200' }],
    });
    t.notOk(issued.isError, JSON.stringify(issued));
    const noteId = issued.structuredContent!.id as number;
    t.equal(await open(noteId), -108.1, 'the credit note: 100.00 + 8.1 % open to set off');
    t.equal(yes.questions.length, 1, 'issuing it posts: asked once');

    const allocate = { vc: 'customer', id: noteId, document_id: second.id, amount: 50 };
    // a client that cannot ask the person: nothing is set off
    const notAsked = await unasked.call('allocate_credit_note', allocate);
    t.notOk(notAsked.isError, JSON.stringify(notAsked));
    t.match(notAsked.structuredContent, { confirmation: { outcome: 'not_done', reason: 'not_asked' } });
    t.equal(notAsked.content![0]!.text.split(':')[0], `Credit note ${noteId} was not set against invoice ${second.id}`);
    const declined = await no.call('allocate_credit_note', allocate);
    t.match(declined.structuredContent, { confirmation: { outcome: 'not_done', reason: 'declined' } });
    t.equal(no.questions.length, 1, 'the declining person was asked');
    t.equal(await open(second.id), 216.2, 'nothing set off');
    t.equal(await open(noteId), -108.1);

    const done = await yes.call('allocate_credit_note', allocate);
    t.notOk(done.isError, JSON.stringify(done));
    t.match(done.structuredContent, { credit_note_id: noteId, document_id: second.id, amount: 50 });
    t.equal(
      done.content![0]!.text,
      `Set 50 of credit note ${noteId} against invoice ${second.id}; 166.2 still open.`,
      'the summary',
    );
    const question = yes.questions.at(-1)!;
    t.match(question, /^Test Assistant asks to set 50\.00 CHF of credit note CN-\d+ against invoice /, question);
    t.match(question, new RegExp(`invoice ${second.invNumber} of Globex Corp \\(open 216\\.20 CHF\\)`));
    t.equal(await open(second.id), 166.2, 'the invoice: 50 less open');
    t.equal(await open(noteId), -58.1, 'the credit note: 50 less to set off');

    // a 2025-era client is asked on the call's stream the same way
    const v1 = new ClientV1({ name: 'sales-test-v1', version: '1' }, { capabilities: { elicitation: {} } });
    const v1Questions: string[] = [];
    v1.setRequestHandler(ElicitRequestSchema, async (req) => {
      v1Questions.push(req.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await v1.connect(
      new TransportV1(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => v1.close());
    const legacy = (await v1.callTool({
      name: 'allocate_credit_note',
      arguments: { ...allocate, amount: 8.1 },
    })) as ToolResult;
    t.notOk(legacy.isError, JSON.stringify(legacy));
    t.match(v1Questions, [/asks to set 8\.10 CHF of credit note CN-\d+ against invoice .* \(open 166\.20 CHF\)/]);
    t.equal(await open(noteId), -50, '2025 era: set off once confirmed');
    t.equal(await open(second.id), 158.1);

    // more than the credit note has open: the ledger's refusal as a tool error, nothing written
    const over = await yes.call('allocate_credit_note', { ...allocate, amount: 60 });
    t.ok(over.isError, 'over the open amount');
    t.equal(over.structuredContent?.error?.code, 'overpayment');
    t.equal(await open(second.id), 158.1);
  });

  t.test('a quote made and turned into a draft invoice, without a question', async (t) => {
    const asked = yes.questions.length;
    // valid from today for a year (an expired quote is not turned into an invoice)
    const today = new Date().toISOString().slice(0, 10);
    const nextYear = `${Number(today.slice(0, 4)) + 1}${today.slice(4, 8)}01`;
    const quote = await yes.call('create_quote', {
      customer_id: customer.id,
      invDate: today,
      valid_until: nextYear,
      items: [{ description: 'Projekt', quantity: 2, price: 400, account: '3400', taxAccount: '2200' }],
    });
    t.notOk(quote.isError, JSON.stringify(quote));
    const quoteId = quote.structuredContent!.id as number;
    const converted = await yes.call('convert_quote', { id: quoteId, invDate: today });
    t.notOk(converted.isError, JSON.stringify(converted));
    const invoiceId = converted.structuredContent!.id as number;
    t.equal(converted.content![0]!.text, `Quote ${quoteId} became draft invoice ${invoiceId}.`);
    t.match((await rest('GET', `/arap/invoice/customer/${invoiceId}`)).body, {
      status: 'draft',
      grossAmount: 864.8,
      invDate: today,
    });
    t.equal(yes.questions.length, asked, 'neither posts: nobody was asked');
    const again = await yes.call('convert_quote', { id: quoteId });
    t.equal(again.structuredContent?.error?.code, 'conflict', 'a quote becomes an invoice once');
    // an assistant finds its quotes (and what became of them) by list_quotes
    const listed = await yes.call('list_quotes', {});
    t.notOk(listed.isError, JSON.stringify(listed));
    const rows = listed.structuredContent!.quotes as { id: number; status: string; invoice_id: number | null }[];
    t.match(
      rows.find((q) => q.id === quoteId),
      { status: 'invoiced', invoice_id: invoiceId },
      'the quote listed as invoiced, naming its invoice',
    );
  });

  t.test('dunning: the dry run only reads; sending is asked first', async (t) => {
    t.equal((await rest('POST', '/system/company', { dunning: { levels: LEVELS } })).status, 200);
    const overdue = await invoice(300); // 324.30, due 2026-03-12
    const date = '2026-04-01';
    const runs = async () => ((await rest('GET', '/arap/dunning/runs')).body as unknown[]).length;

    const dry = await unasked.call('run_dunning', { date, dry_run: true });
    t.notOk(dry.isError, JSON.stringify(dry));
    t.notOk(dry.structuredContent!.confirmation, 'a dry run needs nobody');
    const due = dry.structuredContent!.items as Record<string, unknown>[];
    t.match(
      due.find((i) => i.invoice_id === overdue.id),
      { level: 1, fee: 10, open: 324.3 },
      'the overdue invoice reaches level 1 with its fee',
    );
    t.equal(await runs(), 0, 'a dry run records nothing');

    // a client that cannot ask: nothing sent, and the proposal says what a person can send
    const notAsked = await unasked.call('run_dunning', { date });
    t.notOk(notAsked.isError, JSON.stringify(notAsked));
    t.match(notAsked.structuredContent, { confirmation: { outcome: 'not_done', reason: 'not_asked' } });
    t.same(notAsked.structuredContent!.items, due, 'the proposal');
    t.match(notAsked.content![0]!.text, /^No reminders were sent: this client cannot ask the person/);
    const declined = await no.call('run_dunning', { date });
    t.match(declined.structuredContent, { confirmation: { outcome: 'not_done', reason: 'declined' } });
    t.equal(await runs(), 0, 'nothing sent, no level recorded');

    const asked = yes.questions.length;
    const sent = await yes.call('run_dunning', { date });
    t.notOk(sent.isError, JSON.stringify(sent));
    t.equal(yes.questions.length, asked + 1, 'the person was asked');
    const question = yes.questions.at(-1)!;
    const start = `^Test Assistant asks to send the dunning run of ${date}: \\d+ reminders? \\(`;
    t.match(question, new RegExp(start));
    t.match(question, new RegExp(`${overdue.invNumber} to Globex Corp, level 1, open 324\\.30 CHF`));
    t.match(question, /fees of \d+\.00 CHF booked\. Send them\?$/);
    t.equal(await runs(), 1, 'the run was sent');
    const run = (await rest('GET', `/arap/dunning/runs/${sent.structuredContent!.id}`)).body;
    const reminded = (run.items as Record<string, any>[]).find((i) => i.invoice_id === overdue.id);
    t.match(reminded, { level: 1, fee: 10 }, 'the level recorded');
    t.match(
      (await rest('GET', `/arap/transaction/customer/${reminded?.fee_transaction_id}`)).body,
      { status: 'posted', grossAmount: 10, invDate: date },
      'the fee booked',
    );
    t.match(sent.content![0]!.text, /^\d+ reminder\(s\) sent\.$/);

    // the same day again: nothing is due, so nothing to confirm
    const again = await yes.call('run_dunning', { date });
    t.notOk(again.isError, JSON.stringify(again));
    t.same(again.structuredContent!.items, [], 'nothing due twice');
    t.equal(yes.questions.length, asked + 1, 'a run that sends nothing is not asked about');
  });
});
