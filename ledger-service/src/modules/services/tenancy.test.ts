/**
 * The services store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither see nor
 * change company A's catalogue service, even given its id or part number.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import {
  accountsByNumber,
  deleteService,
  findServiceForItem,
  getService,
  listServices,
  lockService,
  partnumberTaken,
  updateService,
} from './store.ts';

t.test("company B's store calls never reach A's services", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const made = await apiClient(ledger.url, a.dataset, a.apiKey)('POST', '/arap/services', {
    description: 'Consulting of A',
    partnumber: 'CONS-A',
    price: 100,
  });
  t.equal(made.status, 201, JSON.stringify(made.body));
  const id: number = made.body.id;
  const A = a.company.id;
  const B = b.company.id;
  const page = { sort: 'id', limit: 100, offset: 0 };
  await ledger.db.transaction(async (tx) => {
    t.equal((await listServices(tx, A, page)).total, 1, "A's list has it");
    t.equal((await listServices(tx, B, page)).total, 0, "B's list does not");
    t.equal((await getService(tx, A, id))?.id, id);
    t.equal(await getService(tx, B, id), undefined, 'B cannot read it by id');
    t.equal(await findServiceForItem(tx, B, { service_id: id }), undefined);
    t.equal(await findServiceForItem(tx, B, { partnumber: 'CONS-A' }), undefined, 'nor by part number');
    t.equal(await partnumberTaken(tx, A, 'CONS-A'), true);
    t.equal(await partnumberTaken(tx, B, 'CONS-A'), false, "A's part number is free for B");
    t.equal(await lockService(tx, B, id), false, 'B cannot lock it');
    t.equal(await updateService(tx, B, id, { description: 'Taken by B' }), false, 'nor change it');
    t.equal(await deleteService(tx, B, id), 'missing', 'nor delete it');
    t.equal((await getService(tx, A, id))?.description, 'Consulting of A', 'A has it as it was');
    const accountOfA = (await accountsByNumber(tx, A, ['3400'])).get('3400');
    const accountOfB = (await accountsByNumber(tx, B, ['3400'])).get('3400');
    t.ok(accountOfA && accountOfB && accountOfA.id !== accountOfB.id, 'each finds its own account');
  });
});
