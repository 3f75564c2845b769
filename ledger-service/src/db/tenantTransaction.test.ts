/**
 * The tenant transaction's contract (tenantTransaction.ts): the company and the serving role
 * are set before the caller's first statement, they do not outlive the transaction on the
 * pooled connection, the role cannot bypass row-level security, and a query without any
 * `where` sees and writes only the company's rows. A set-up whose serving role could bypass
 * row-level security is refused, naming the role; a plain role serves as itself.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { createDb, type Db, type Tx } from './knex.ts';
import { APP_ROLE, servingRole, TenantGuardFailed, UnsafeServingRole, withTenant } from './tenantTransaction.ts';
import { createCompany, type Company } from './companies.ts';

// as test/helpers.ts names it; not imported from there, which loads the whole ledger
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

/** The settings and role as a statement sees them. */
async function seen(
  q: Db | Tx,
): Promise<{ company: string | null; user: string; superuser: boolean; bypass: boolean }> {
  const { rows } = await q.raw<{
    rows: { company: string | null; user: string; superuser: boolean; bypass: boolean }[];
  }>(
    `select nullif(current_setting('app.company_id', true), '') as company, current_user as "user",
            r.rolsuper as superuser, r.rolbypassrls as bypass
       from pg_roles r where r.rolname = current_user`,
  );
  return rows[0]!;
}

async function twoCompanies(db: Db): Promise<[Company, Company]> {
  const tag = randomBytes(4).toString('hex');
  const a = await createCompany(db, { dataset: `tt-a-${tag}`, name: 'A' });
  const b = await createCompany(db, { dataset: `tt-b-${tag}`, name: 'B' });
  for (const c of [a, b]) {
    await withTenant(db, c.id, (tx) =>
      tx('parties').insert({ company_id: c.id, vc: 'vendor', number: `V-${tag}`, name: `of ${c.dataset}` }),
    );
  }
  return [a, b];
}

/** A login role made for one test, dropped after it. */
async function scratchRole(
  t: { teardown(fn: () => unknown): void },
  admin: Db,
  attributes: string,
): Promise<{ name: string; url: string }> {
  const name = `tenancy_${randomBytes(4).toString('hex')}`;
  await admin.raw(`create role ${name} login ${attributes}`);
  t.teardown(() => admin.raw(`drop role if exists ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.username = name;
  return { name, url: url.toString() };
}

t.test('the settings come before the first statement and end with the transaction', async (t) => {
  // one connection: the transaction after the tenant's one runs on the very same connection
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  const outside = await seen(db);
  t.equal(outside.company, null, 'no company outside a tenant transaction');
  const inside = await withTenant(db, a.id, (tx) => seen(tx));
  t.equal(inside.company, String(a.id), "the caller's first statement already sees the company");
  t.equal(inside.user, APP_ROLE, 'and runs as the serving role (the test URL is a superuser: it switches)');
  t.notOk(inside.superuser, 'the serving role is no superuser');
  t.notOk(inside.bypass, 'and may not bypass row-level security');
  t.same(await seen(db), outside, 'the next transaction on the pooled connection has neither setting');
  await t.rejects(
    withTenant(db, a.id, async (tx) => {
      await seen(tx);
      throw new Error('the handler failed');
    }),
    /the handler failed/,
  );
  t.same(await seen(db), outside, 'nor after a tenant transaction that was rolled back');
  t.same(await servingRole(db), { role: APP_ROLE, switched: true });
});

t.test("row-level security refuses another company's rows to a query without a where", async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 2 });
  t.teardown(() => db.destroy());
  const [a, b] = await twoCompanies(db);
  const companies = await withTenant(db, a.id, async (tx) =>
    (await tx('parties').select('company_id')).map((r: { company_id: number }) => r.company_id),
  );
  t.ok(companies.length > 0, "A's own vendor is there");
  t.same([...new Set(companies)], [a.id], 'only rows of A, though the query names no company');
  await t.rejects(
    withTenant(db, a.id, (tx) => tx('parties').insert({ company_id: b.id, vc: 'vendor', number: 'X', name: 'X' })),
    /row-level security/,
    "a row of B cannot be written from A's transaction",
  );
  const changed = await withTenant(db, a.id, (tx) => tx('parties').where({ company_id: b.id }).update({ name: 'x' }));
  t.equal(changed, 0, "B's rows cannot be changed from A's transaction");
});

t.test("a guard that says the credential changed rolls back before the caller's statements", async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  let ran = false;
  await t.rejects(
    withTenant(
      db,
      a.id,
      async () => {
        ran = true;
      },
      'select false as unchanged',
    ),
    TenantGuardFailed,
  );
  t.notOk(ran, 'the caller never ran');
  t.equal(
    await withTenant(db, a.id, async () => 'ran', 'select true as unchanged'),
    'ran',
    'a guard that holds lets it run',
  );
  t.equal((await seen(db)).company, null, 'nothing left on the connection');
});

t.test('a role that could bypass row-level security and cannot switch is refused, named', async (t) => {
  const admin = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => admin.destroy());
  const role = await scratchRole(t, admin, 'bypassrls');
  const db = createDb(role.url, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const refusal = await servingRole(db).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(refusal instanceof UnsafeServingRole, 'refused');
  t.match(String(refusal), role.name, 'the refusal names the role');
  t.match(String(refusal), APP_ROLE, 'and the role it may not switch to');
  await t.rejects(
    withTenant(db, 1, async () => 'ran'),
    UnsafeServingRole,
    'no tenant transaction runs on it',
  );
});

t.test('a plain role serves as itself, under row-level security', async (t) => {
  const admin = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => admin.destroy());
  const [a, b] = await twoCompanies(admin);
  // the table rights of the application role, without its switch
  const role = await scratchRole(t, admin, `nosuperuser nobypassrls in role ${APP_ROLE}`);
  const db = createDb(role.url, { poolMax: 1 });
  t.teardown(() => db.destroy());
  t.same(await servingRole(db), { role: role.name, switched: false }, 'no switch');
  const inside = await withTenant(db, b.id, async (tx) => ({
    who: await seen(tx),
    companies: (await tx('parties').select('company_id')).map((r: { company_id: number }) => r.company_id),
  }));
  t.equal(inside.who.user, role.name, 'the URL user runs the transaction');
  t.same([...new Set(inside.companies)], [b.id], 'and sees only the company of the transaction');
  t.notOk(inside.companies.includes(a.id));
});
