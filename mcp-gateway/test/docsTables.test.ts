/**
 * The generated docs tables (endpoints in docs/rest-api.md, MCP tools in docs/mcp.md, the
 * consent choices' tools in docs/assistants.md) are what scripts/docs-tables.ts produces
 * from the contracts and the tool catalogue.
 */
import t from 'tap';
import { CONTRACTS } from '@ledger/shared';
import { CATALOGUE } from '../src/mcp/tools/catalogue.ts';
import {
  generatedFiles,
  renderConsentTable,
  renderEndpointTable,
  renderToolTable,
  replaceBlock,
} from '../../scripts/docs-tables.ts';

t.test('the committed docs tables are the generated ones', async (t) => {
  for (const { file, committed, generated } of generatedFiles()) {
    // compared as strings; a failure shows the diff
    t.equal(
      committed,
      generated,
      `${file}: tables as generated (when not: run npm run docs:tables and commit the result)`,
    );
  }
});

t.test('every contract and every tool has its row', async (t) => {
  const endpoints = renderEndpointTable();
  for (const c of CONTRACTS) {
    const path = c.path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
    t.match(endpoints, `| ${c.method} | \`${path}\` |`, `${c.method} ${c.path}`);
  }
  const tools = renderToolTable();
  for (const { declaration: d } of CATALOGUE) t.match(tools, `| \`${d.name}\` |`, d.name);
  t.match(
    tools,
    '| `approve_bill` | Invoices and bills | write | invoices:write | `POST /arap/transaction/vendor/:id/approve` ' +
      '| destructive |',
  );
  t.match(
    endpoints,
    '| GET | `/arap/{vc}/{id}` | `vendors.vendors` / `customers.customers` | every role | `contacts:read` | 200 | — |',
  );
  const consent = renderConsentTable();
  for (const { declaration: d } of CATALOGUE) t.match(consent, `\`${d.name}\``, `${d.name} under its area's choice`);
  t.match(
    consent,
    /\| Bank \| `bank:read`: `list_bank_accounts`, `list_bank_transactions`, [^|]* \| `bank:write`: also `book_bank/,
    'the bank area has its write choice (bank automation)',
  );
  t.match(
    consent,
    /\| Documents \| `documents:read`: [^|]*`list_inbox` \| `documents:write`: also `upload_to_inbox` \|/,
  );
});

t.test('a block is replaced between its markers, the text around it kept', async (t) => {
  const doc = 'before\n<!-- generated:x (do not edit) -->\nold\nrows\n<!-- /generated:x -->\nafter\n';
  t.equal(
    replaceBlock(doc, 'x', 'new'),
    'before\n<!-- generated:x (do not edit) -->\nnew\n<!-- /generated:x -->\nafter\n',
  );
  t.throws(
    () => replaceBlock('no markers', 'x', 'new'),
    /no <!-- generated:x -->/,
    'missing markers are an error, not a silent skip',
  );
});
