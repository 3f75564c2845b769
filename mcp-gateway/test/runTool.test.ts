/**
 * runTool (src/mcp/server.ts) names a file answer of a tool without a resource link by the
 * REST path it called (`ledger://{dataset}/…`), and a JSON answer is the tool's result as
 * before; the name is made only for a file answer.
 */
import t from 'tap';
import { runTool, type ToolRunDeps } from '../src/mcp/server.ts';
import { findTool } from '../src/mcp/tools/catalogue.ts';
import type { LedgerResponse } from '../src/mcp/types.ts';

const connection = {
  id: 'c1',
  userId: 7,
  dataset: 'acme',
  resource: 'https://gw.example/mcp/acme',
  scopes: ['contacts:read'],
  clientName: 'test',
};

function depsAnswering(answer: LedgerResponse): ToolRunDeps {
  return {
    callLedger: async () => answer,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as ToolRunDeps['log'],
    publicUrl: 'https://gw.example',
    stateKey: new Uint8Array(32),
  };
}

t.test('a file answer is embedded under its REST path, a JSON answer is the result', async (t) => {
  const tool = findTool('search_vendors')!;
  t.notOk(tool.declaration.link, 'a tool without a resource link');
  const file = { mediaType: 'application/pdf', name: 'x.pdf', data: Buffer.from('%PDF-1') };
  const filed = await runTool(
    depsAnswering({ status: 200, body: undefined, file, connectionChecked: true }),
    connection,
    tool,
    { name: 'Papeterie' },
    1,
  );
  const embedded = filed.content.find((c) => c.type === 'resource') as
    | { resource: { uri: string; mimeType: string; blob: string } }
    | undefined;
  t.same(embedded?.resource, {
    uri: 'ledger://acme/arap/vendor?name=Papeterie',
    mimeType: 'application/pdf',
    blob: Buffer.from('%PDF-1').toString('base64'),
  });
  const listed = await runTool(
    depsAnswering({ status: 200, body: [{ id: 1, name: 'Papeterie' }], connectionChecked: true }),
    connection,
    tool,
    { name: 'Papeterie' },
    2,
  );
  t.same(listed.structuredContent, { vendors: [{ id: 1, name: 'Papeterie' }] });
});
