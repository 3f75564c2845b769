/**
 * The order of a request's way through the ledger is data (stages/index.ts): this test reads
 * it top to bottom, and checks which stages each kind of route passes, decided at mount time.
 */
import t from 'tap';
import { CONTRACTS, type Contract } from '@ledger/shared';
import { STAGES, serveRoute, type ServeShared } from './index.ts';
import type { Db } from '../../db/knex.ts';
import type { Route } from '../handler.ts';

const handle = async () => undefined;
const contractNamed = (name: string): Contract => CONTRACTS.find((c) => c.name === name)!;
const getParty = contractNamed('getParty');
const createParty = contractNamed('createParty');
const createPayment = contractNamed('createPayment');
const names = (route: Route) =>
  serveRoute(route, 'vendor', {} as Db, {} as ServeShared).stages.map((stage) => stage.name);

t.test('the stages, in the order a request passes them', async (t) => {
  t.same(
    STAGES.map((stage) => stage.name),
    [
      'admission',
      'idempotency',
      'body bound',
      'untrusted parse',
      'validation',
      'company turn',
      'transaction',
      'idempotent write',
      'confirmation',
      'answer',
    ],
  );
});

t.test('a route passes the stages that apply to it, picked when it is mounted', async (t) => {
  t.same(
    names({ contract: getParty, handle }),
    ['admission', 'body bound', 'validation', 'transaction', 'answer'],
    'a read',
  );
  t.same(
    names({ contract: createParty, handle }),
    [
      'admission',
      'idempotency',
      'body bound',
      'validation',
      'company turn',
      'transaction',
      'idempotent write',
      'answer',
    ],
    'a write without a declared effect: no confirmation',
  );
  t.same(
    names({ contract: createPayment, handle }),
    [
      'admission',
      'idempotency',
      'body bound',
      'validation',
      'company turn',
      'transaction',
      'idempotent write',
      'confirmation',
      'answer',
    ],
    'a write that pays',
  );
  t.same(
    names({ contract: createPayment, handle, prepareBody: (ctx) => ctx.request.body }),
    STAGES.map((stage) => stage.name),
    'a paying write that parses its body passes them all',
  );
  const deletes = CONTRACTS.find((c) => c.method === 'DELETE' && c.effect === 'deletes');
  t.ok(deletes, 'a contract deletes');
  if (deletes) {
    t.same(
      names({ contract: deletes, handle }),
      ['admission', 'body bound', 'validation', 'company turn', 'transaction', 'confirmation', 'answer'],
      'a DELETE takes a turn and a confirmation, no key',
    );
  }
});
