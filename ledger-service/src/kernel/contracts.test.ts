import t from 'tap';
import Router from '@koa/router';
import { CONTRACTS, contract, contracts, INTERNAL_CONTRACTS, internalContracts, PERMISSIONS } from '@ledger/shared';
import { clientRoutes } from '../modules/index.ts';
import { pairRoutes, route } from './route.ts';
import { internalRoute, mountInternalRoutes } from './internalRoute.ts';
import { buildOpenApi } from './openapi.ts';
import { permittedEndpoints } from './endpointAccess.ts';

t.test('every contract has exactly one handler, and every handler a contract', async (t) => {
  const paired = pairRoutes(clientRoutes);
  t.equal(paired.length, CONTRACTS.length);
  t.same(
    paired.map((r) => r.contract.name),
    CONTRACTS.map((c) => c.name),
    'in contract order',
  );
});

t.test('a contract without a handler, a handler without a contract, or two handlers fail start-up', async (t) => {
  const withoutOne = clientRoutes.filter((r) => r.contract !== contracts.getParty);
  t.throws(() => pairRoutes(withoutOne), /contracts without a handler: getParty/);

  const stray = contract({
    name: 'stray',
    method: 'GET',
    path: '/stray',
    summary: 'not listed',
    description: 'A contract no list names.',
    example: {},
    permission: null,
    scope: null,
    errors: [],
  });
  t.throws(
    () => pairRoutes([...clientRoutes, route(stray, async () => ({}))]),
    /handler for stray, which is not in the contract list/,
  );

  t.throws(
    () => pairRoutes([...clientRoutes, route(contracts.getParty, async () => ({}))]),
    /two handlers for contract getParty/,
  );
});

t.test('contracts are well-formed: unique names and endpoints, known permissions, errors and statuses', async (t) => {
  const names = new Set<string>();
  const endpoints = new Set<string>();
  for (const c of CONTRACTS) {
    t.notOk(names.has(c.name), `${c.name} is unique`);
    names.add(c.name);
    const key = `${c.method} ${c.path}`;
    t.notOk(endpoints.has(key), `${key} is declared once`);
    endpoints.add(key);
    t.match(c.name, /^[a-z][A-Za-z]+$/, 'camelCase name');
    t.match(c.path, /^\/[a-z_]+(\/([a-z_]+|:[A-Za-z]+))*$/, `${c.name}: path of literal segments and :params`);
    const perms =
      c.permission === null
        ? []
        : typeof c.permission === 'string'
          ? [c.permission]
          : [c.permission.vendor, c.permission.customer];
    for (const p of perms) t.ok((PERMISSIONS as readonly string[]).includes(p), `${c.name}: ${p} is a permission`);
    if (typeof c.permission === 'object' && c.permission !== null)
      t.ok(c.path.includes(':vc'), `${c.name}: per-side permission only on :vc paths`);
    if (c.status === 204) t.notOk(c.response, `${c.name}: 204 has no body`);
    if (c.list) t.equal(c.method, 'GET', `${c.name}: lists are GETs`);
  }
});

t.test('the internal API has contracts of its own, kept out of everything published', async (t) => {
  t.ok(INTERNAL_CONTRACTS.length >= 8, 'the internal contracts are found');
  for (const c of INTERNAL_CONTRACTS) {
    t.equal(c.internal, true, `${c.name} is marked internal`);
    t.match(c.name, /^internal\.[a-z][A-Za-z]+$/, `${c.name}: named apart from the public contracts`);
    t.match(c.path, /^\/[a-z_]+(\/([a-z_]+|:[A-Za-z]+))*$/, `${c.name}: path of literal segments and :params`);
    t.same([c.permission, c.scope], [null, null], `${c.name}: the gateway calls it, no member`);
  }
  t.same(
    CONTRACTS.filter((c) => c.internal).map((c) => c.name),
    [],
    'no internal contract in the public list (OpenAPI, endpoint access, tools, docs tables iterate it)',
  );
  const everyKey = permittedEndpoints('owner');
  for (const c of INTERNAL_CONTRACTS)
    t.notOk(everyKey.includes(`${c.method} ${c.path}`), `${c.name} is no permitted endpoint`);
  t.throws(
    () => buildOpenApi([...CONTRACTS, internalContracts.setAiConnections], 'http://localhost'),
    /internal\.setAiConnections is an internal contract/,
    'the OpenAPI document refuses an internal contract',
  );
  const doc = JSON.stringify(buildOpenApi(CONTRACTS, 'http://localhost'));
  t.notOk(
    doc.includes('/internal') || doc.includes('internal.') || doc.includes('/ai_connections'),
    'nothing internal in the public document',
  );
});

t.test('internal handlers pair with internal contracts one to one', async (t) => {
  const router = () => new Router({ prefix: '/internal' });
  const db = undefined as never; // mounting never touches the database
  const all = INTERNAL_CONTRACTS.map((c) => internalRoute(c, async () => undefined as never));
  t.doesNotThrow(() => mountInternalRoutes(router(), db, all));
  t.throws(() => mountInternalRoutes(router(), db, all.slice(1)), /internal contracts without a handler: internal\./);
  t.throws(() => mountInternalRoutes(router(), db, [...all, all[0]!]), /two internal handlers/);
  t.throws(
    () => internalRoute(contracts.getParty, async () => undefined as never),
    /getParty is not an internal contract/,
  );
});
