/**
 * The ledger's internal API has contracts of its own (shared/src/contracts/internal.ts): the
 * gateway's ledger client calls them by contract, and nothing the gateway publishes (MCP
 * tools, the docs tables) may take one. The calls themselves run against a real ledger in
 * signin, pages, connectionAudit and connectionCheck tests.
 */
import t from 'tap';
import { CONTRACTS, INTERNAL_CONTRACTS, internalContracts } from '@ledger/shared';
import { resolveTool } from '../src/mcp/tools/derive.ts';
import type { ToolDeclaration } from '../src/mcp/tools/declare.ts';
import { internalPath } from '../src/ledgerClient.ts';
import { renderEndpointTable } from '../../scripts/docs-tables.ts';

t.test('no MCP tool can be declared on an internal contract', async (t) => {
  const declaration: ToolDeclaration = {
    name: 'x_tool',
    title: 'X',
    description: 'x',
    area: 'contacts',
    access: 'read',
    contract: internalContracts.getCompany,
    summary: () => '',
  };
  t.throws(() => resolveTool(declaration), /x_tool: internal\.getCompany is the gateway's own internal API/);
});

t.test('the docs endpoint table refuses an internal contract, and lists none', async (t) => {
  t.throws(() => renderEndpointTable([...CONTRACTS, internalContracts.getMember]), /internal contract/);
  const table = renderEndpointTable();
  for (const c of INTERNAL_CONTRACTS)
    t.notOk(table.includes(`\`${c.path.replace(/:(\w+)/g, '{$1}')}\``), `${c.name} is not in the table`);
});

t.test("the client writes a contract's path parameters in, each encoded", async (t) => {
  t.equal(
    internalPath(internalContracts.getMember, { dataset: 'muster-ag', userId: '7' }),
    '/companies/muster-ag/members/7',
  );
  t.equal(internalPath(internalContracts.getCompany, { dataset: 'a/b' }), '/companies/a%2Fb');
  t.equal(internalPath(internalContracts.verifyCredentials, {}), '/auth/verify');
});
