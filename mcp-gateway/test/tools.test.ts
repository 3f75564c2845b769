/**
 * Tool ↔ contract consistency: every MCP tool names a contract of shared/ that exists, fits
 * its area's scope and names a real permission; its REST call, input and output schemas are
 * the contract's. Declarations that do not fit are refused at start-up (resolveTool throws).
 */
import t from 'tap';
import {
  CONTRACTS,
  contracts,
  customerInvoiceSchema,
  customerTransactionSchema,
  errorBodySchema,
  documentListRowSchema,
  documentReadSchema,
  endpointKey as contractKey,
  findContract,
  forSide,
  idSchema,
  partySchemas,
  partySearchQuerySchema,
  PERMISSIONS,
  scopeSatisfied,
  transactionReadSchema,
  vendorTransactionSchema,
  type Permission,
} from '@ledger/shared';
import { CATALOGUE, DECLARATIONS, findTool } from '../src/mcp/tools/catalogue.ts';
import {
  endpointKey,
  toolAnnotations,
  toolScope,
  type ResolvedTool,
  type ToolDeclaration,
} from '../src/mcp/tools/declare.ts';
import { resolveTool } from '../src/mcp/tools/derive.ts';
import { withoutSharedFormats } from '../src/mcp/tools/formats.ts';
import { buildLedgerRequest } from '../src/mcp/tools/request.ts';
import { toolSuccess } from '../src/mcp/tools/result.ts';

function tool(name: string): ResolvedTool {
  const found = findTool(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found.declaration;
}

t.test('every tool names an existing contract that fits its area, scope and permission', async (t) => {
  t.equal(CATALOGUE.length, DECLARATIONS.length, 'every declaration resolved');
  for (const { declaration: d } of CATALOGUE) {
    t.ok(CONTRACTS.includes(d.contract), `${d.name}: ${d.contract.name} is in CONTRACTS`);
    t.equal(findContract(d.contract.name), d.contract, `${d.name}: found by name`);
    const scope = d.contract.scope;
    t.ok(scope !== null && scopeSatisfied([toolScope(d)], scope), `${d.name}: ${toolScope(d)} grants ${scope}`);
    t.equal(scope?.split(':')[0], d.area, `${d.name}: the contract belongs to the tool's area`);
    const permission = d.contract.permission === null ? null : forSide(d.contract.permission, d.side);
    // null: any member (e.g. the workstation, which lists only the sides the member may read)
    t.ok(
      permission === null || (PERMISSIONS as readonly Permission[]).includes(permission),
      `${d.name}: permission ${permission} exists`,
    );
    t.equal(endpointKey(d), contractKey(d.contract, d.side), `${d.name}: the key the ledger's permitted endpoints use`);
    t.equal(d.access === 'read', d.contract.method === 'GET', `${d.name}: read tools GET, write tools do not`);
  }
});

t.test('REST call, input and output schemas come from the contract', async (t) => {
  t.same(tool('search_vendors').rest, { method: 'GET', path: '/arap/vendor' });
  t.equal(tool('search_vendors').input, partySearchQuerySchema, 'a query schema without path ids is taken unchanged');
  t.equal(tool('create_customer').input, partySchemas.customer.create, 'so is a body without path ids or fixed fields');
  t.same(
    tool('get_vendor').input,
    {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: { id: { ...idSchema, description: 'vendor id' } },
    },
    'path ids become required integer ids',
  );
  t.equal(
    tool('get_chart_of_accounts').input,
    contracts.listChartAccounts.query,
    'a list without filters: only its page',
  );
  t.same(Object.keys(tool('get_chart_of_accounts').input.properties), ['limit', 'offset']);
  const update = tool('update_customer').input;
  t.same(update.required, ['id'], 'update: id, and the update fields (all optional)');
  t.same(Object.keys(update.properties), ['id', ...Object.keys(partySchemas.customer.update.properties)]);

  const create = tool('create_bill');
  t.same(create.rest, { method: 'POST', path: '/arap/transaction/vendor', fixedBody: { type: 'transaction' } });
  t.notOk('type' in create.input.properties, 'a fixed field is not offered as input');
  t.ok('pending' in create.input.properties, 'create_bill may post');
  t.same(create.input.required, vendorTransactionSchema.required);
  const approve = tool('approve_bill');
  t.equal(approve.rest.path, '/arap/transaction/vendor/:id/approve', ':vc resolved to the side');
  t.notOk('pending' in approve.input.properties || 'type' in approve.input.properties, 'approve_bill always posts');
  t.same(approve.input.required, ['id', ...vendorTransactionSchema.required]);

  const advertised = withoutSharedFormats(transactionReadSchema);
  // outputSchema: the answer's shape, or a tool error's `{ error }`
  const answerOf = (name: string) => {
    const output = tool(name).output;
    t.same(output?.anyOf?.[1], errorBodySchema, `${name}: tool errors (the ledger's error body) fit the output schema`);
    return output?.anyOf?.[0];
  };
  // the reads cover both kinds: one schema per kind, told apart by `kind`
  t.same(
    answerOf('list_bills'),
    {
      type: 'object',
      required: ['bills'],
      properties: { bills: { type: 'array', items: withoutSharedFormats(documentListRowSchema) } },
    },
    'list answers wrapped under listKey',
  );
  t.same(answerOf('get_invoice'), withoutSharedFormats(documentReadSchema));
  const kinds = (answerOf('get_invoice') as { oneOf?: { properties: { kind: { enum: string[] } } }[] } | undefined)
    ?.oneOf;
  t.same(
    kinds?.map((k) => k.properties.kind.enum),
    [['transaction'], ['invoice']],
    'get_invoice: a transaction or an invoice, by kind',
  );
  t.same(
    kinds?.[0]?.properties,
    { kind: documentReadSchema.oneOf[0].properties.kind, ...advertised.properties },
    "a transaction's read shape plus kind",
  );
  t.ok('kind' in tool('list_invoices').input.properties, 'list_invoices filters by kind');
  t.notOk('payment_status' in tool('list_invoices').input.properties, 'only the filters both kinds share');
  t.same(
    answerOf('get_vendor'),
    withoutSharedFormats(partySchemas.vendor.read),
    'the side picks the per-side response',
  );
  t.same(answerOf('create_bill'), contracts.createTransaction.response);
  t.notMatch(
    JSON.stringify(CATALOGUE.map((c) => c.declaration.output)),
    /iso-(country|currency)/,
    'no custom format reaches clients',
  );
  t.match(
    JSON.stringify(tool('get_vendor').output),
    /"pattern":"\^\[A-Z\]\{2\}\$"/,
    'the pattern still fixes the shape',
  );
});

t.test('the REST request: path ids from the input, the rest as query or body, fixed fields win', async (t) => {
  t.same(buildLedgerRequest(tool('get_bill'), 'acme co', { id: 7 }), {
    method: 'GET',
    path: '/client/acme%20co/arap/document/vendor/7',
  });
  t.same(buildLedgerRequest(tool('get_invoice'), 'acme', { id: 8 }), {
    method: 'GET',
    path: '/client/acme/arap/document/customer/8',
  });
  t.same(buildLedgerRequest(tool('list_invoices'), 'acme', { customer_id: 3, status: 'posted' }), {
    method: 'GET',
    path: '/client/acme/arap/documents/customer?customer_id=3&status=posted',
  });
  t.same(buildLedgerRequest(tool('list_bills'), 'acme', { kind: 'invoice' }), {
    method: 'GET',
    path: '/client/acme/arap/documents/vendor?kind=invoice',
  });
  t.same(buildLedgerRequest(tool('approve_bill'), 'acme', { id: 9, invDate: '2026-01-02', lines: [] }), {
    method: 'POST',
    path: '/client/acme/arap/transaction/vendor/9/approve',
    body: { invDate: '2026-01-02', lines: [], type: 'transaction', pending: '0' },
  });
});

t.test('create_bill says posted for pending "0" and for the number 0', async (t) => {
  const created = tool('create_bill');
  const text = (input: Record<string, unknown>) => toolSuccess(created, input, { id: 5 }).content[0];
  t.match(text({ pending: '0' }), { text: 'Created bill 5 as posted.' });
  t.match(text({ pending: 0 }), { text: 'Created bill 5 as posted.' });
  t.match(text({}), { text: 'Created bill 5 as a draft.' });
});

t.test('create_invoice / update_invoice: customer invoices with items over the invoice contracts', async (t) => {
  const created = tool('create_invoice');
  t.same(created.rest, { method: 'POST', path: '/arap/invoice/customer', fixedBody: { type: 'invoice' } });
  t.notOk('type' in created.input.properties, 'type is fixed');
  t.ok(
    'items' in created.input.properties && 'pending' in created.input.properties && 'notes' in created.input.properties,
    'items, pending and the customer fields',
  );
  t.same(created.input.required, ['invDate'], 'what both bodies require');
  t.same(
    created.input.oneOf,
    [{ required: ['items'] }, { required: ['lines'] }],
    'items (an invoice) or lines (an AR transaction), not both',
  );
  t.same(created.alternative?.rest, {
    method: 'POST',
    path: '/arap/transaction/customer',
    fixedBody: { type: 'transaction' },
  });
  t.equal(created.alternative?.contract, contracts.createTransaction);
  t.same(
    created.input.properties.lines,
    customerTransactionSchema.properties.lines,
    'lines as the AR transaction takes them',
  );
  t.same(created.input.properties.items, customerInvoiceSchema.properties.items);
  t.equal(toolAnnotations(created).destructiveHint, false);
  t.same(
    buildLedgerRequest(created, 'acme', { customer_id: 3, invDate: '2026-01-02', items: [{ quantity: 1 }] }),
    {
      method: 'POST',
      path: '/client/acme/arap/invoice/customer',
      body: { customer_id: 3, invDate: '2026-01-02', items: [{ quantity: 1 }], type: 'invoice' },
    },
    'items: the invoice contract',
  );
  t.same(
    buildLedgerRequest(created, 'acme', {
      customer_id: 3,
      invDate: '2026-01-02',
      lines: [{ account: '3400', amount: 5 }],
    }),
    {
      method: 'POST',
      path: '/client/acme/arap/transaction/customer',
      body: { customer_id: 3, invDate: '2026-01-02', lines: [{ account: '3400', amount: 5 }], type: 'transaction' },
    },
    'lines: the AR transaction contract, typed as a transaction',
  );
  const text = (input: Record<string, unknown>) => toolSuccess(created, input, { id: 8 }).content[0];
  t.match(text({ pending: '0' }), { text: 'Created invoice 8 as posted.' });
  t.match(text({ pending: 0 }), { text: 'Created invoice 8 as posted.' });
  t.match(text({}), { text: 'Created invoice 8 as a draft.' });
  t.match(text({ lines: [] }), { text: 'Created AR transaction 8 as a draft.' });
  // the compiled input schema (what the MCP server checks before calling): exactly one of the two
  const input = findTool('create_invoice')!.inputSchema['~standard'];
  const valid = async (args: Record<string, unknown>) => {
    const result = await input.validate(args);
    return !('issues' in result && result.issues);
  };
  const header = { customer_id: 3, invDate: '2026-01-02' };
  t.equal(
    await valid({ ...header, items: [{ description: 'x', quantity: 1, price: 1, account: '3400' }] }),
    true,
    'items alone: accepted',
  );
  t.equal(await valid({ ...header, lines: [{ account: '3400', amount: 5 }] }), true, 'lines alone: accepted');
  t.equal(
    await valid({
      ...header,
      items: [{ description: 'x', quantity: 1, price: 1, account: '3400' }],
      lines: [{ account: '3400', amount: 5 }],
    }),
    false,
    'both: refused',
  );
  t.equal(await valid(header), false, 'neither: refused');
  const updated = tool('update_invoice');
  t.same(updated.rest, { method: 'POST', path: '/arap/invoice/customer/:id', fixedBody: { type: 'invoice' } });
  t.same(updated.input.required, ['id', ...customerInvoiceSchema.required]);
  t.equal(toolAnnotations(updated).destructiveHint, true);
  t.same(buildLedgerRequest(updated, 'acme', { id: 4, invDate: '2026-01-02', items: [] }), {
    method: 'POST',
    path: '/client/acme/arap/invoice/customer/4',
    body: { invDate: '2026-01-02', items: [], type: 'invoice' },
  });
});

t.test('a declaration that does not fit its contract is refused at start-up', async (t) => {
  const base: ToolDeclaration = {
    name: 'x_tool',
    title: 'X',
    description: 'x',
    area: 'contacts',
    access: 'read',
    contract: 'getParty',
    side: 'vendor',
    summary: () => '',
  };
  t.ok(resolveTool(base), 'the base declaration fits');
  const refused: [string, Partial<ToolDeclaration>, RegExp][] = [
    [
      'a missing contract',
      { contract: 'noSuchEndpoint' as ToolDeclaration['contract'] },
      /x_tool: names no contract noSuchEndpoint/,
    ],
    ['a :vc contract without side', { side: undefined }, /:vc path; declare the side/],
    ['a side on a contract without :vc', { contract: contracts.listTaxes, area: 'accounting' }, /no :vc path/],
    ['another area', { area: 'invoices' }, /getParty needs contacts:read, which invoices:read does not grant/],
    [
      'a contract closed to AI connections',
      { contract: contracts.listAudit, side: undefined, area: 'accounting', listKey: 'entries' },
      /not open to AI connections/,
    ],
    ['a write tool calling GET', { access: 'write' }, /a write tool cannot call GET/],
    ['a list without listKey', { contract: contracts.searchParties }, /answers a list: declare listKey/],
    ['listKey on a single record', { listKey: 'vendors' }, /does not answer a list: drop listKey/],
    ['an unknown path parameter', { params: { fileId: 'file' } }, /has no parameter :fileId/],
    [
      'a write whose contract declares no effect',
      { access: 'write', contract: { ...contracts.createParty, effect: undefined } },
      /createParty declares no effect \(posts, pays, sends, deletes or none\)/,
    ],
    [
      'a fixed field the body lacks',
      { access: 'write', contract: contracts.createParty, fixedBody: { pending: '0' } },
      /fixed field pending is not in createParty's body/,
    ],
    [
      'an alternative whose field the main body has too',
      {
        access: 'write',
        area: 'invoices',
        side: 'customer',
        contract: contracts.createInvoice,
        alternative: { field: 'invDate', contract: contracts.createTransaction },
      },
      /field invDate must be in createTransaction's body only/,
    ],
    [
      'an alternative that answers differently',
      {
        access: 'write',
        area: 'invoices',
        side: 'customer',
        contract: contracts.createInvoice,
        alternative: { field: 'lines', contract: contracts.updateTransaction },
      },
      /lines must be in|answer differently/,
    ],
  ];
  for (const [why, change, message] of refused) t.throws(() => resolveTool({ ...base, ...change }), message, why);
});

t.test('list_services: the catalogue list under invoices:read', async (t) => {
  const d = tool('list_services');
  t.same(d.rest, { method: 'GET', path: '/arap/services' });
  t.equal(toolScope(d), 'invoices:read');
  t.equal(d.input, contracts.listServices.query, 'the list query unchanged: active, q, sort, paging');
  t.same(
    d.output?.anyOf?.[0],
    {
      type: 'object',
      required: ['services'],
      properties: { services: { type: 'array', items: withoutSharedFormats(contracts.getService.response) } },
    },
    'wrapped under services',
  );
  t.same(
    buildLedgerRequest(d, 'acme', { active: true, q: 'design' }).path,
    '/client/acme/arap/services?active=true&q=design',
  );
});

t.test('currency in a tool input that takes curr: refused naming curr, as the ledger refuses it', async (t) => {
  const takingCurr = CATALOGUE.filter((c) => 'curr' in c.declaration.input.properties);
  t.ok(
    ['create_vendor', 'update_customer', 'create_bill', 'update_invoice', 'create_journal_entry'].every((n) =>
      takingCurr.some((c) => c.declaration.name === n),
    ),
    'parties, documents and journal entries take curr',
  );
  for (const tool of takingCurr) {
    const checked = await tool.inputSchema['~standard'].validate({ id: 1, name: 'X', currency: 'EUR' });
    t.ok(checked.issues, `${tool.declaration.name}: refused`);
    t.match(
      checked.issues?.[0]?.message,
      /^invalid_currency: Send the currency as "curr" .* \(field \/curr\)$/,
      `${tool.declaration.name}: says to send curr`,
    );
  }
  const vendor = findTool('create_vendor')!.inputSchema['~standard'];
  t.notOk((await vendor.validate({ name: 'X', curr: 'EUR' })).issues, 'curr passes');
  t.equal(
    (await vendor.validate({ name: 'X', colour: 'red' })).issues?.[0]?.message,
    'invalid_request: Field "colour" is not allowed here. (field /colour)',
    'other unknown fields named, as the REST API names them',
  );
});

t.test('tool input: an unknown field is named, a date names its format', async (t) => {
  const bill = findTool('create_bill')!.inputSchema['~standard'];
  const valid = { vendor_id: 1, invDate: '2026-11-28', lines: [{ account: '6500', amount: 10 }] };
  t.notOk((await bill.validate(valid)).issues, 'valid');
  t.equal(
    (await bill.validate({ ...valid, lines: [{ acount: '6500', amount: 10 }] })).issues?.[0]?.message,
    'invalid_request: Field "acount" is not allowed here. (field /lines/0/acount)',
    'the misspelled field, not a schema dump',
  );
  t.equal(
    (await bill.validate({ ...valid, invDate: '28.11.2026' })).issues?.[0]?.message,
    'invalid_request: Field "invDate" must be a date as YYYY-MM-DD, e.g. 2026-11-28. (field /invDate)',
  );
  const invoice = findTool('create_invoice')!.inputSchema['~standard'];
  t.equal(
    (await invoice.validate({ customer_id: 1, invDate: '2026-11-28', items: [{ price: 1 }], colour: 'red' }))
      .issues?.[0]?.message,
    'invalid_request: Field "colour" is not allowed here. (field /colour)',
    'named also where the input is one of two bodies',
  );
});
