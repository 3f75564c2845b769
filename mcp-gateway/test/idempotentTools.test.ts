/**
 * MCP write tools are safe to retry: a `tools/call` sent again with the same JSON-RPC id and
 * arguments (at this gateway or another replica) is answered from the ledger's kept answer
 * (Idempotency-Key derived from connection, id, tool and request) and books nothing twice.
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { connect, eachStore, startReplica } from './helpers.ts';

type ToolAnswer = { isError?: boolean; structuredContent?: Record<string, any> };

/** One raw JSON-RPC tools/call with a chosen id (the SDK client numbers its requests itself). */
async function rawCall(
  url: string,
  token: string,
  id: string | number,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`tools/call answered ${res.status}: ${text}`);
  // a JSON answer, or one SSE event carrying it
  const json = (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('')
    : text;
  const message = JSON.parse(json) as { id: unknown; result?: ToolAnswer; error?: unknown };
  if (message.id !== id || !message.result) throw new Error(`unexpected answer: ${json}`);
  return message.result;
}

const retried = 'a retried tools/call with the same id and arguments writes once, at either replica';
eachStore(t, retried, async (t, { startStack }) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, {
    choices: { contacts: 'write', invoices: 'write', accounting: 'read' },
  });
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const replica = await startReplica(t, stack);
  const atReplica = resource.replace(stack.url, replica.url);
  const call = (id: string | number, name: string, args: Record<string, unknown>, url = resource) =>
    rawCall(url, tokens.access_token, id, name, args);
  const vendorsNamed = async (name: string) =>
    (await rest('GET', `/arap/vendor?name=${encodeURIComponent(name)}`)).body.filter(
      (v: { name: string }) => v.name === name,
    ).length;

  const first = await call(7, 'create_vendor', { name: 'Retry Vendor AG' });
  t.notOk(first.isError, JSON.stringify(first));
  const again = await call(7, 'create_vendor', { name: 'Retry Vendor AG' });
  t.same(again.structuredContent, first.structuredContent, 'the same answer (the same vendor id)');
  const elsewhere = await call(7, 'create_vendor', { name: 'Retry Vendor AG' }, atReplica);
  t.same(elsewhere.structuredContent, first.structuredContent, 'also when the retry lands on the other replica');
  t.equal(await vendorsNamed('Retry Vendor AG'), 1, 'one vendor');

  const newId = await call(8, 'create_vendor', { name: 'Retry Vendor AG' });
  t.not(newId.structuredContent?.id, first.structuredContent?.id, 'another JSON-RPC id is another request');
  t.equal(await vendorsNamed('Retry Vendor AG'), 2);
  const stringId = await call('7', 'create_vendor', { name: 'Retry Vendor AG' });
  t.not(stringId.structuredContent?.id, first.structuredContent?.id, 'the id "7" is not the id 7');
  const otherArgs = await call(7, 'create_vendor', { name: 'Other Vendor AG' });
  t.notOk(otherArgs.isError, 'a new session reusing id 7 with other arguments is a new write, not a conflict');
  t.equal(await vendorsNamed('Other Vendor AG'), 1);

  // a bill: same id twice → one bill
  const accounts = (await rest('GET', '/system/chart/accounts')).body as { accno: string; link: string }[];
  const expense = accounts.find((a) => a.link.split(':').includes('AP_amount'))!;
  const bill = {
    vendor_id: first.structuredContent!.id,
    documentNumber: 'RETRY-1',
    invDate: '2024-05-02',
    lines: [{ account: expense.accno, amount: 80 }],
  };
  const billed = await call(21, 'create_bill', bill);
  const rebilled = await call(21, 'create_bill', bill, atReplica);
  t.notOk(billed.isError, JSON.stringify(billed));
  t.same(rebilled.structuredContent, billed.structuredContent);
  const bills = (await rest('GET', '/arap/transactions/vendor?document_number=RETRY-1')).body;
  t.equal(bills.length, 1, 'one bill booked');

  // reads carry no key: the same id twice reads the current state
  const read1 = await call(30, 'get_vendor', { id: first.structuredContent!.id });
  await rest('POST', `/arap/vendor/${first.structuredContent!.id}`, { name: 'Retry Vendor AG', city: 'Chur' });
  const read2 = await call(30, 'get_vendor', { id: first.structuredContent!.id });
  t.equal(read1.structuredContent?.city ?? null, null);
  t.equal(read2.structuredContent?.city, 'Chur', 'a read is never replayed');
});
