import t from 'tap';
import { Validator } from '@seriousme/openapi-schema-validator';
import { CONTRACTS, forSide, sidesOf } from '@ledger/shared';
import { clientRoutes } from '../modules/index.ts';
import { openApiPath } from './openapi.ts';
import { startTestLedger } from '../../test/helpers.ts';

t.test('GET /openapi.json is a valid OpenAPI 3.1 document listing every mounted route', async (t) => {
  const ledger = await startTestLedger(t, { publicUrl: 'https://books.example' });
  const res = await fetch(`${ledger.url}/openapi.json`);
  t.equal(res.status, 200);
  const doc = await res.json();

  const validator = new Validator();
  const result = await validator.validate(doc);
  t.same(result.errors ?? [], [], 'no validation errors');
  t.ok(result.valid, 'valid');
  t.equal(validator.version, '3.1');
  t.same(
    doc.servers,
    [
      {
        url: '{api_url}/client/{dataset}',
        description: doc.servers[0].description,
        variables: {
          api_url: { default: 'https://books.example', description: doc.servers[0].variables.api_url.description },
          dataset: { default: 'demo', description: doc.servers[0].variables.dataset.description },
        },
      },
    ],
    'one server: the public URL and the dataset as variables, so paths are relative to {base_url}',
  );
  t.equal(doc.paths['/healthz'].servers[0].url, '{api_url}', 'the meta paths are at the origin itself');
  for (const [path, item] of Object.entries(
    doc.paths as Record<string, Record<string, { summary?: string; description?: string }>>,
  )) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'servers') continue;
      t.ok(op.summary && op.summary.length <= 60, `${method} ${path}: a short summary (${op.summary})`);
      t.ok(op.description && op.description.length > (op.summary?.length ?? 0) / 2, `${method} ${path}: a description`);
    }
  }
  t.ok(
    doc.tags.every((tag: { description?: string }) => tag.description),
    'every tag is described',
  );
  t.same(doc.components.securitySchemes.apiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: doc.components.securitySchemes.apiKey.description,
  });
  t.same(doc.security, [{ apiKey: [] }]);
  t.ok(doc.components.schemas.Error.properties.error, 'the error body');

  let count = 0;
  for (const { contract } of clientRoutes) {
    for (const vc of sidesOf(contract)) {
      const path = openApiPath(contract, vc);
      const op = doc.paths[path]?.[contract.method.toLowerCase()];
      t.ok(op, `${contract.method} ${path} is documented`);
      t.ok(op?.responses?.['401'] && op?.responses?.['403'], 'with its error responses');
      t.equal(
        op?.['x-permission'],
        contract.permission ? forSide(contract.permission, vc) : null,
        'and its permission',
      );
      count++;
    }
  }
  t.ok(count >= 14, `${count} operations`);

  const createVendor = doc.paths['/arap/vendor'].post;
  t.equal(createVendor['x-permission'], 'vendors.add_vendor');
  t.equal(createVendor.requestBody.content['application/json'].schema.additionalProperties, false);
  t.ok(createVendor.requestBody.content['application/json'].schema.properties.vendornumber, 'side-specific body');
  t.notOk(createVendor.requestBody.content['application/json'].schema.properties.customernumber);
  t.ok(doc.paths['/arap/customer'].post.requestBody.content['application/json'].schema.properties.customernumber);
  t.ok(createVendor.responses['201']);
  const search = doc.paths['/arap/vendor'].get;
  t.ok(
    search.parameters.some((p: { name: string; in: string }) => p.name === 'name' && p.in === 'query'),
    'query parameters',
  );
  const bills = doc.paths['/arap/transactions/vendor'].get;
  const billFilters = bills.parameters.map((p: { name: string }) => p.name);
  t.ok(billFilters.includes('document_number') && billFilters.includes('status'), 'side-specific list filters');
  t.ok(billFilters.includes('vendornumber') && !billFilters.includes('customernumber'), "the side's own party filter");
  const lists = CONTRACTS.filter((c) => c.list).length;
  t.ok(lists >= 7, `${lists} list routes`);
  for (const [path, item] of Object.entries(
    doc.paths as Record<string, { get?: { responses: Record<string, { headers?: Record<string, unknown> }> } }>,
  )) {
    const route = CONTRACTS.find((c) => c.method === 'GET' && sidesOf(c).some((vc) => openApiPath(c, vc) === path));
    if (!route?.list) continue;
    t.ok(
      item.get?.responses['200']?.headers?.['X-Total-Count'] && item.get.responses['200'].headers.Link,
      `${path}: X-Total-Count and Link documented`,
    );
  }
  const sort = bills.parameters.find((p: { name: string }) => p.name === 'sort');
  t.same(sort.schema.enum, ['inv_date', '-inv_date', 'id', '-id'], 'sort keys of transaction lists');
  t.equal(sort.schema.default, 'inv_date');
  const chart = doc.paths['/system/chart/accounts'].get;
  t.ok(chart.responses['304'], 'conditional GET documented');
  t.ok(doc.paths['/healthz'] && doc.paths['/readyz'], 'health endpoints');
});
