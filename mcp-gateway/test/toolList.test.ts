/**
 * The lean tool list: what tools/list shows for a connection with every area at "Read and
 * change" is at most 60 KB of JSON in both protocol eras, free of the schema warnings the
 * MCP Inspector reports, valid JSON Schema 2020-12 (Ajv strict), with titles and icons —
 * while every call is still validated against the contract's full schema.
 */
import t from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { assertReferences, CATALOGUE, findTool, listedInput, listedOutput } from '../src/mcp/tools/catalogue.ts';
import type { ResolvedTool } from '../src/mcp/tools/declare.ts';
import { expandRefs, leanField, leanInput, shareRepeats } from '../src/mcp/tools/lean.ts';
import { connect, startStack } from './helpers.ts';
import { lintTool } from './support/schemaLint.ts';

/** The most tools/list may weigh, in bytes of JSON, in either era (60 KB since this round's tools, docs/mcp.md). */
const MAX_TOOL_LIST_BYTES = 60_000;

const WRITE_ALL = { accounting: 'write', invoices: 'write', contacts: 'write', bank: 'write', documents: 'write' };

const listed = CATALOGUE.map(({ declaration: d }) => ({
  name: d.name,
  inputSchema: listedInput(d),
  outputSchema: listedOutput(d),
}));

t.test('no schema finding of the MCP Inspector in any tool', async (t) => {
  const findings = listed.flatMap((tool) => lintTool(tool));
  t.same(findings, [], 'no boolean schema, type union, remote $ref or untyped schema');
});

t.test('every listed schema is valid JSON Schema 2020-12 and compiles in Ajv strict mode', async (t) => {
  // Ajv's strict mode, types included; a `required` naming a property declared beside it (oneOf of required sets) is
  // standard JSON Schema
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  for (const tool of listed) {
    for (const [which, schema] of [
      ['input', tool.inputSchema],
      ['output', tool.outputSchema],
    ] as const) {
      if (schema === undefined) continue;
      t.equal(
        ajv.validateSchema(schema),
        true,
        `${tool.name} ${which}: meta-valid ${JSON.stringify(ajv.errors ?? [])}`,
      );
      t.doesNotThrow(() => ajv.compile(schema), `${tool.name} ${which}: compiles strictly`);
    }
  }
});

t.test("the listed input shows the contract's fields and requirements; the contract validates", async (t) => {
  const names = (s: object) => Object.keys((s as { properties?: object }).properties ?? {});
  for (const { declaration: d } of CATALOGUE) {
    const shown = listedInput(d) as { properties?: object; required?: string[]; oneOf?: unknown; description?: string };
    if (d.inputAs) {
      const other = findTool(d.inputAs)!.declaration;
      t.match(
        shown.description,
        new RegExp(`the fields of ${d.inputAs}$`),
        `${d.name}: names ${d.inputAs} for the body`,
      );
      for (const name of names(d.input))
        t.ok(name in shown.properties! || name in other.input.properties, `${d.name}: ${name} shown here or there`);
      continue;
    }
    t.same(names(shown), names(d.input), `${d.name}: the same fields`);
    t.same(shown.required, d.input.required, `${d.name}: the same required fields`);
    t.same(shown.oneOf, d.input.oneOf, `${d.name}: the same required alternatives`);
  }
  // the bounds and patterns are no longer shown, yet an input breaking them is refused as before
  const vendor = findTool('create_vendor')!;
  t.notMatch(JSON.stringify(listedInput(vendor.declaration)), /pattern|maxLength/, 'no pattern shown');
  const bad = await vendor.inputSchema['~standard'].validate({ name: 'X', country: 'switzerland' });
  t.match(bad.issues?.[0]?.message, /country/, 'the contract schema refuses the country');
  const extra = await vendor.inputSchema['~standard'].validate({ name: 'X', no_such_field: 1 });
  t.ok(extra.issues, 'and unknown fields');
  const json = vendor.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  t.same(json, listedInput(vendor.declaration), 'what the SDK lists is the lean schema');
});

t.test('$defs: a repeated sub-schema written once, expanding to the same schema', async (t) => {
  const line = {
    type: 'object',
    required: ['account'],
    properties: { account: { type: 'string' }, amount: { type: 'number' }, taxAccount: { type: 'string' } },
  };
  const schema = {
    type: 'object',
    properties: { debit: { type: 'array', items: line }, credit: { type: 'array', items: line } },
  };
  const shared = shareRepeats(schema);
  t.ok(shared.$defs, 'shared under $defs');
  t.match(JSON.stringify(shared.properties), /"\$ref":"#\/\$defs\/d1"/);
  t.same(expandRefs(shared), schema, 'expanded: the schema as it was');
  t.ok(JSON.stringify(shared).length < JSON.stringify(schema).length, 'shorter');
  const tiny = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
  t.equal(shareRepeats(tiny), tiny, 'a repeat shorter than its reference stays');
  // every tool's full schemas, shared and expanded again, are the schemas they were; some tools have repeats to share
  let sharing = 0;
  for (const { declaration: d } of CATALOGUE) {
    for (const [which, schema] of [
      ['input', d.input],
      ['output', d.output],
    ] as const) {
      if (schema === undefined) continue;
      const original = structuredClone(schema);
      const shared = shareRepeats(structuredClone(schema) as unknown as Parameters<typeof shareRepeats>[0]);
      if (shared.$defs) sharing++;
      t.same(expandRefs(shared), original, `${d.name} ${which}: shared and expanded, the same schema`);
    }
    t.ok(!/\$ref/.test(JSON.stringify(expandRefs(leanInput(d.input)))), `${d.name}: the listed input expands fully`);
  }
  t.ok(sharing > 0, `${sharing} of the tools' schemas have repeats written once`);
});

t.test('a shape shown once: a field or answer naming another tool is exactly what that tool shows', async (t) => {
  const tools = CATALOGUE.map((c) => c.declaration);
  const byName = (name: string) => tools.find((d) => d.name === name)!;
  /** the listed schema with the field at `path` replaced by `field` */
  const put = (schema: any, path: string[], field: unknown): any =>
    path.length === 0
      ? field
      : {
          ...schema,
          properties: { ...schema.properties, [path[0]!]: put(schema.properties[path[0]!], path.slice(1), field) },
        };
  let fields = 0;
  let outputs = 0;
  for (const d of tools) {
    const shown = listedInput(d) as any;
    // each field as the named tool shows it, put back: what would be listed without the references
    let back = expandRefs(shown);
    for (const [path, name] of Object.entries(d.fieldsAs ?? {})) {
      fields++;
      const field = path.split('.').at(-1)!;
      const at = path.split('.').reduce((node, key) => node.properties[key], shown);
      t.same(at, { type: 'array', description: `as ${field} of ${name}` }, `${d.name} ${path}: names ${name}`);
      back = put(back, path.split('.'), leanField(byName(name).input, field));
    }
    if (d.fieldsAs) t.same(back, expandRefs(leanInput(d.input)), `${d.name}: the named tools show exactly its shape`);
    if (d.outputAs) {
      outputs++;
      t.same(listedOutput(d), { type: 'object', description: `as ${d.outputAs} answers` }, `${d.name}: names it`);
      const { outputAs: _outputAs, ...own } = d;
      t.same(listedOutput(own as ResolvedTool), listedOutput(byName(d.outputAs)), `${d.name}: the same answer`);
    }
  }
  t.ok(fields >= 5 && outputs >= 2, `${fields} fields and ${outputs} answers shown once`);

  // a reference that would lose something stops the gateway
  const bad = (name: string, change: Partial<ResolvedTool>) =>
    tools.map((d) => (d.name === name ? { ...d, ...change } : d));
  t.throws(
    () => assertReferences(bad('get_customer', { outputAs: 'get_vendor' })),
    /outputAs get_vendor/,
    'other fields',
  );
  t.throws(
    () => assertReferences(bad('list_bills', { outputAs: 'list_invoices' })),
    /outputAs list_invoices/,
    'other filters listed alike but another answer',
  );
  t.throws(
    () => assertReferences(bad('create_quote', { fieldsAs: { items: 'create_bill' } })),
    /fieldsAs items/,
    'a tool without the field',
  );
  t.throws(
    () => assertReferences(bad('create_journal_entry', { fieldsAs: { files: 'create_bill' } })),
    /fieldsAs files/,
    'a tool of another scope, not listed beside it',
  );
  t.doesNotThrow(() => assertReferences(tools), 'the declared references hold');
});

t.test('an output enum lists its values without the type they all have', async (t) => {
  const typedEnums = JSON.stringify(listed.map((tool) => tool.outputSchema ?? {})).match(/"type":"\w+","enum"/g);
  t.same(typedEnums, null, 'no type beside an enum of its values');
  const changes = listed.find((tool) => tool.name === 'list_changes')!.outputSchema as any;
  t.match(changes.properties.events.items.properties.type, { enum: ['invoice.created'] }, 'the values stay');
});

/** The raw tools/list answer of one era, as the client receives it. */
async function rawToolList(
  url: string,
  token: string,
  era: '2026-07-28' | '2025-11-25',
): Promise<{
  bytes: number;
  tools: { name: string; title?: string; icons?: { src: string }[]; inputSchema: unknown; outputSchema?: unknown }[];
}> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params:
      era === '2026-07-28'
        ? {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': era,
              'io.modelcontextprotocol/clientInfo': { name: 'size', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          }
        : {},
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era,
      ...(era === '2026-07-28' ? { 'mcp-method': 'tools/list' } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  // a 2025-era answer may come as one SSE event: its data line is the message
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  const message = JSON.parse(json) as { result: { tools: [] } };
  return { bytes: Buffer.byteLength(JSON.stringify(message.result)), tools: message.result.tools };
}

t.test('tools/list over HTTP: at most 60 KB in both eras, with titles and area icons', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: WRITE_ALL });
  const sizes: Record<string, number> = {};
  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    const { bytes, tools } = await rawToolList(resource, tokens.access_token, era);
    sizes[era] = bytes;
    t.equal(tools.length, CATALOGUE.length, `${era}: every tool`);
    t.ok(bytes <= MAX_TOOL_LIST_BYTES, `${era}: ${bytes} bytes ≤ ${MAX_TOOL_LIST_BYTES}`);
    t.same(
      tools.flatMap((tool) => lintTool(tool)),
      [],
      `${era}: no Inspector finding in what is sent`,
    );
    for (const tool of tools) {
      t.ok(tool.title, `${era} ${tool.name}: a title`);
      const area = findTool(tool.name)!.declaration.area;
      t.same(tool.icons, [{ src: `${stack.url}/mcp-icons/${area}.svg` }], `${era} ${tool.name}: its area's icon`);
    }
  }
  t.comment(`tools/list with every area at "Read and change": ${JSON.stringify(sizes)} bytes`);

  // the icons are served, as SVG that runs nothing
  for (const name of ['ledger', 'accounting', 'invoices', 'contacts', 'bank', 'documents']) {
    const res = await fetch(`${stack.url}/mcp-icons/${name}.svg`);
    t.equal(res.status, 200, `${name}.svg`);
    t.equal(res.headers.get('content-type'), 'image/svg+xml');
    t.match(res.headers.get('content-security-policy'), /default-src 'none'/);
    t.notMatch(await res.text(), /<script/i);
  }
  t.equal((await fetch(`${stack.url}/mcp-icons/nope.svg`)).status, 404);

  // the server names itself with its icon, in both eras
  for (const mode of ['auto', 'legacy'] as const) {
    const client = new Client({ name: 'icons', version: '1' }, { versionNegotiation: { mode } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => client.close());
    t.match(
      client.getServerVersion(),
      {
        name: 'ledger-mcp',
        title: 'Ledger',
        icons: [{ src: `${stack.url}/mcp-icons/ledger.svg`, mimeType: 'image/svg+xml' }],
      },
      `${mode}: server icon`,
    );
  }
});
