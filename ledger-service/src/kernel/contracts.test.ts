import t from 'tap';
import { CONTRACTS, contract, contracts, PERMISSIONS } from '@ledger/shared';
import { clientRoutes } from '../modules/index.ts';
import { pairRoutes, route } from './route.ts';

t.test('every contract has exactly one handler, and every handler a contract', async (t) => {
  const paired = pairRoutes(clientRoutes);
  t.equal(paired.length, CONTRACTS.length);
  t.same(paired.map((r) => r.contract.name), CONTRACTS.map((c) => c.name), 'in contract order');
});

t.test('a contract without a handler, a handler without a contract, or two handlers fail start-up', async (t) => {
  const withoutOne = clientRoutes.filter((r) => r.contract !== contracts.getParty);
  t.throws(() => pairRoutes(withoutOne), /contracts without a handler: getParty/);

  const stray = contract({ name: 'stray', method: 'GET', path: '/stray', summary: 'not listed', permission: null, scope: null, errors: [] });
  t.throws(() => pairRoutes([...clientRoutes, route(stray, async () => ({}))]), /handler for stray, which is not in the contract list/);

  t.throws(() => pairRoutes([...clientRoutes, route(contracts.getParty, async () => ({}))]), /two handlers for contract getParty/);
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
    const perms = c.permission === null ? [] : typeof c.permission === 'string' ? [c.permission] : [c.permission.vendor, c.permission.customer];
    for (const p of perms) t.ok((PERMISSIONS as readonly string[]).includes(p), `${c.name}: ${p} is a permission`);
    if (typeof c.permission === 'object' && c.permission !== null) t.ok(c.path.includes(':vc'), `${c.name}: per-side permission only on :vc paths`);
    if (c.status === 204) t.notOk(c.response, `${c.name}: 204 has no body`);
    if (c.list) t.equal(c.method, 'GET', `${c.name}: lists are GETs`);
  }
});
