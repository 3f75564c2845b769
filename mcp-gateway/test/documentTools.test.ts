/**
 * The documents area over MCP with the official client v2 on a real gateway and ledger:
 * upload a QR-bill PDF to the inbox, wait for its extraction, read the proposal, create the
 * vendor and the bill from it (invoices scope), find the file among the documents.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CATALOGUE } from '../src/mcp/tools/catalogue.ts';
import { fixture, IMAGE_PDF } from '../../ledger-service/test/fixtures/inbox/fixtures.ts';
import { connect, startStack } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content?: { type: string; text: string }[];
};

t.test('declarations: scopes, inputs and list keys come from the documents contracts', async (t) => {
  const tool = (name: string) => CATALOGUE.find((c) => c.declaration.name === name)!.declaration;
  t.same(
    ['list_documents', 'get_document', 'list_inbox', 'upload_to_inbox'].map((n) => [
      tool(n).area,
      tool(n).access,
      tool(n).rest.method,
      tool(n).rest.path,
    ]),
    [
      ['documents', 'read', 'GET', '/documents'],
      ['documents', 'read', 'GET', '/documents/:id'],
      ['documents', 'read', 'GET', '/documents/inbox'],
      ['documents', 'write', 'POST', '/documents/inbox'],
    ],
  );
  const upload = tool('upload_to_inbox').input;
  t.same(Object.keys(upload.properties).sort(), ['data', 'media_type', 'name']);
  t.same(upload.required, ['name', 'data']);
  t.same(Object.keys(tool('list_inbox').input.properties).sort(), ['limit', 'offset', 'sort', 'status']);
});

t.test('upload a QR-bill, read the proposal, create vendor and bill from it', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, {
    choices: { accounting: 'none', invoices: 'write', contacts: 'write', bank: 'none', documents: 'write' },
  });
  const client = new Client({ name: 'documents-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const ok = (r: ToolResult) => {
    if (r.isError || !r.structuredContent) throw new Error(`tool failed: ${JSON.stringify(r)}`);
    return r.structuredContent;
  };

  const names = (await client.listTools()).tools.map((x) => x.name);
  t.ok(
    ['list_documents', 'get_document', 'list_inbox', 'upload_to_inbox'].every((n) => names.includes(n)),
    'documents tools listed',
  );

  const uploaded = await call('upload_to_inbox', {
    name: 'meier.pdf',
    media_type: 'application/pdf',
    data: fixture(IMAGE_PDF.file).toString('base64'),
  });
  const entry = ok(uploaded);
  t.equal(entry.status, 'new');
  t.match(uploaded.content?.[0]?.text, /inbox entry \d+/);

  // polled at most 100 times a minute: the connection's limit is 120 requests per minute, and
  // on a loaded machine the extraction may take longer than a minute
  let extracted: Record<string, any> | undefined;
  for (let i = 0; i < 200 && !extracted; i++) {
    const listed = ok(await call('list_inbox', { status: 'extracted' }));
    extracted = listed.entries.find((e: { id: number }) => e.id === entry.id);
    if (!extracted) await new Promise((r) => setTimeout(r, i < 10 ? 100 : 600));
  }
  if (!extracted) throw new Error('the upload was not extracted');
  t.equal(extracted.extracted.iban, IMAGE_PDF.iban);
  t.equal(extracted.extracted.amount, IMAGE_PDF.amount);
  t.equal(extracted.extracted.reference, IMAGE_PDF.reference);
  const proposal = extracted.extracted.proposal;

  // no vendor yet: create the proposed one, then the bill from the proposal
  const vendor = ok(await call('create_vendor', proposal.new_vendor));
  const bill = ok(await call('create_bill', { ...proposal.bill, vendor_id: vendor.id }));
  t.ok(bill.id, 'bill created from the proposal');
  const read = ok(await call('get_bill', { id: bill.id }));
  t.equal(read.documentNumber, IMAGE_PDF.documentNumber);
  t.equal(read.grossAmount, IMAGE_PDF.amount);
  t.equal(read.invDate, IMAGE_PDF.invDate);

  const docs = ok(await call('list_documents', { kind: 'inbox' }));
  t.same(
    docs.documents.map((d: { id: number }) => d.id),
    [entry.document_id],
  );
  const doc = ok(await call('get_document', { id: entry.document_id }));
  t.equal(doc.media_type, 'application/pdf');
  t.equal(doc.size, fixture(IMAGE_PDF.file).length);
  t.same(doc.attached_to, [{ kind: 'inbox', id: entry.id, number: null }]);

  const refused = await call('upload_to_inbox', {
    name: 'x.txt',
    media_type: 'application/pdf',
    data: Buffer.from('plain text').toString('base64'),
  });
  t.equal(refused.isError, true, 'not a PDF: a tool error');
  t.equal(refused.structuredContent?.error?.code, 'unsupported_media_type');
});
