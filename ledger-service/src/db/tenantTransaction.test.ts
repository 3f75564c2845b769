/**
 * The tenant transaction's contract (tenantTransaction.ts): the company and the serving role
 * are set before the caller's first statement, they do not outlive the transaction on the
 * pooled connection, the role cannot bypass row-level security, and a query without any
 * `where` sees and writes only the company's rows. A set-up whose serving role could bypass
 * row-level security is refused, naming the role; a plain role serves as itself.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import {
  closingQuery,
  createDb,
  keepOpen,
  mayRunAgain,
  preparedQuery,
  RunAgain,
  staleReadCheck,
  type Db,
  type Tx,
} from './knex.ts';
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

t.test('a guard that says the credential changed rolls back whatever the caller sent', async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1, preparedStatements: true });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  const tag = randomBytes(4).toString('hex');
  const insert = (tx: Tx, name: string) =>
    tx('parties').insert({ company_id: a.id, vc: 'vendor', number: `${name}-${tag}`, name });
  await t.rejects(
    withTenant(db, a.id, async () => 'ran', { guard: 'select false as unchanged' }),
    TenantGuardFailed,
  );
  let after: unknown;
  await t.rejects(
    withTenant(
      db,
      a.id,
      async (tx) => {
        await insert(tx, 'first').catch((e: unknown) => e);
        after = await insert(tx, 'second').catch((e: unknown) => e);
      },
      { guard: 'select false as unchanged' },
    ),
    TenantGuardFailed,
    'refused, though the caller went on past its refused statement',
  );
  t.type(after, TenantGuardFailed, 'a statement after the failed guard is refused, not sent');
  const sql = 'select count(*)::int as n from parties where company_id = ?';
  const warm = () => withTenant(db, a.id, (tx) => preparedQuery<{ n: number }>(tx, sql, [a.id]));
  await warm();
  await t.rejects(
    withTenant(db, a.id, async (tx) => insert(tx, 'prepared').then(() => preparedQuery(tx, sql, [a.id])), {
      guard: 'select false as unchanged',
    }),
    TenantGuardFailed,
  );
  await t.rejects(
    withTenant(db, a.id, (tx) => preparedQuery(tx, sql, [a.id]), { guard: 'select false as unchanged' }),
    TenantGuardFailed,
    'also when the guard travels with a prepared first statement',
  );
  await t.rejects(
    withTenant(
      db,
      a.id,
      async () => {
        throw new Error('refused on what the caller remembered');
      },
      { guard: 'select false as unchanged' },
    ),
    TenantGuardFailed,
    'a caller failing before its first statement: the changed credential is said, not its refusal',
  );
  await t.rejects(
    withTenant(
      db,
      a.id,
      async () => {
        throw new Error('refused on what the caller remembered');
      },
      { guard: 'select true as unchanged' },
    ),
    /refused on what the caller remembered/,
    'its own refusal when the credential holds',
  );
  const names = await withTenant(db, a.id, (tx) => tx('parties').where('number', 'like', `%-${tag}`).pluck('name'));
  t.same(names, [], 'nothing of the refused transactions stands');
  t.equal(
    await withTenant(db, a.id, async () => 'ran', { guard: 'select true as unchanged' }),
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

t.test('BEGIN, the settings and the guard go as one message, with the first prepared statement', async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1, preparedStatements: true });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  const sent: string[] = [];
  const note = (q: { sql: string }) => sent.push(q.sql);
  const during = async (fn: () => Promise<unknown>) => {
    sent.length = 0;
    db.on('query', note);
    try {
      await fn();
    } finally {
      db.off('query', note);
    }
    return [...sent];
  };
  const guard = 'select true as unchanged';
  const knexFirst = await during(() => withTenant(db, a.id, (tx) => tx('parties').count(), { guard }));
  t.equal(knexFirst.length, 3, "a knex statement first: three messages around the caller's one");
  // knex reports its statement as it hands it to the connection, which sends the opening before it
  t.match(
    knexFirst[1],
    /^begin; set local app\.company_id = '\d+'; set local role ledger_app; select true as unchanged$/,
  );
  t.match(knexFirst[0], /from "parties"/, "the caller's statement");
  t.equal(knexFirst[2], 'commit');
  // values of every kind the literals write, against what the extended protocol gives for them
  const sql = `select ?::int as n, ?::text as s, ?::text[] as texts, ?::int[] as ints, ?::text as nothing,
                      ?::boolean as yes,
                      (select count(*)::int from parties where company_id = ?) as parties`;
  const values = [7, "it's \\ odd", ['a', 'b,c', 'd"e', 'f\\g', "h'i", ''], [1, -2, 3], null, true, a.id];
  const expected = { n: 7, s: "it's \\ odd", texts: values[2], ints: [1, -2, 3], nothing: null, yes: true, parties: 1 };
  const read = () => withTenant(db, a.id, async (tx) => (await preparedQuery(tx, sql, values)).rows[0], { guard });
  let row: unknown;
  const firstUse = await during(async () => {
    row = await read();
  });
  t.same(row, expected, 'its first use on the connection (prepared by it)');
  t.equal(firstUse.length, 3, 'the opening alone, then the statement, which prepares it');
  const again = await during(async () => {
    row = await read();
  });
  t.same(row, expected, 'the same answer with its values as literals');
  t.equal(again.length, 2, 'prepared: it goes with the opening, then COMMIT');
  t.match(
    again[0],
    /^begin; set local app\.company_id = '\d+'; set local role ledger_app; select true as unchanged; execute p_/,
  );
  t.same(
    await during(() => withTenant(db, a.id, async () => 'nothing sent')),
    [],
    'a caller that sends nothing, no guard: no message',
  );
});

t.test("a transaction's knex refuses every use once it is over, also in the next transaction", async (t) => {
  // one connection: the next transaction runs on the very connection the kept reference knew
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const [a, b] = await twoCompanies(db);
  let kept: Tx | undefined;
  let builtInside: PromiseLike<unknown> | undefined;
  await withTenant(db, a.id, async (tx) => {
    kept = tx;
    builtInside = tx('parties').update({ name: 'changed later' });
  });
  t.throws(() => kept!('parties'), /tenant transaction is over/, 'a new statement is refused');
  await withTenant(db, b.id, async (tx) => {
    t.throws(() => kept!.raw('select 1'), /tenant transaction is over/, 'also while another transaction is open');
    await t.rejects(Promise.resolve(builtInside), /tenant transaction is over/, 'a statement built inside, run after');
    t.equal(Number((await tx('parties').count({ n: '*' }))[0]!.n), 1, 'the open one goes on');
  });
  const names = await withTenant(db, a.id, (tx) => tx('parties').pluck('name'));
  t.notOk(names.includes('changed later'), 'nothing of it ran');
});

t.test("a tenant transaction's transaction() is a savepoint: its failure undoes only its part", async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  const tag = randomBytes(4).toString('hex');
  const party = (n: string) => ({ company_id: a.id, vc: 'vendor' as const, number: `${n}-${tag}`, name: n });
  const inner = await withTenant(db, a.id, async (tx) => {
    await tx('parties').insert(party('outer'));
    await t.rejects(
      tx.transaction(async (sp) => {
        await sp('parties').insert(party('undone'));
        throw new Error('the inner part failed');
      }),
      /the inner part failed/,
    );
    await tx.transaction((outer) =>
      outer.transaction(async (nested) => {
        await nested('parties').insert(party('nested'));
      }),
    );
    return tx.transaction(async (sp) => {
      await sp('parties').insert(party('kept'));
      return 'kept';
    });
  });
  t.equal(inner, 'kept', "a savepoint's value comes back");
  await t.rejects(
    withTenant(db, a.id, (tx) => withTenant(tx, a.id, async () => 'nested')),
    /called with a tenant transaction/,
    'no tenant transaction inside one (its COMMIT would end the outer)',
  );
  const names = await withTenant(db, a.id, (tx) => tx('parties').where('number', 'like', `%-${tag}`).pluck('name'));
  t.same(
    names.sort(),
    ['kept', 'nested', 'outer'],
    'the outer write, a savepoint in a savepoint and the last one stand, the failed one is undone',
  );
});

t.test('a connection that broke inside a tenant transaction is not handed out again', async (t) => {
  // one connection in the pool: the next transaction would get the broken one if it were kept
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  const admin = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(async () => {
    await db.destroy();
    await admin.destroy();
  });
  const [a] = await twoCompanies(db);
  const tag = randomBytes(4).toString('hex');
  await t.rejects(
    withTenant(db, a.id, async (tx) => {
      await tx('parties').insert({ company_id: a.id, vc: 'vendor', number: `B-${tag}`, name: 'never committed' });
      const { rows } = await tx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid');
      await admin.raw('select pg_terminate_backend(?)', [rows[0]!.pid]);
      await tx.raw('select 1');
    }),
    'the statement after the break fails the transaction',
  );
  const names = await withTenant(db, a.id, (tx) => tx('parties').where('number', `B-${tag}`).pluck('name'));
  t.same(names, [], 'the next transaction runs, on a new connection, and nothing of the broken one stands');
});

t.test('a connection whose ROLLBACK went unanswered is closed, not handed to the next transaction', async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  const tag = randomBytes(4).toString('hex');
  let firstPid = 0;
  await t.rejects(
    withTenant(db, a.id, async (tx) => {
      await tx('parties').insert({ company_id: a.id, vc: 'vendor', number: `R-${tag}`, name: 'rolled back' });
      firstPid = (await tx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      // fault injection on the real connection: its ROLLBACK is lost (never reaches Postgres)
      const connection = Object.getPrototypeOf(await tx.client.acquireConnection()) as {
        query: (...args: unknown[]) => unknown;
      };
      const query = connection.query.bind(connection);
      connection.query = (...args: unknown[]) =>
        args[0] === 'rollback' ? Promise.reject(new Error('connection lost')) : query(...args);
      throw new Error('the request failed');
    }),
    /the request failed/,
  );
  const next = await withTenant(db, a.id, async (tx) => ({
    pid: (await tx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid')).rows[0]!.pid,
    names: await tx('parties').where('number', `R-${tag}`).pluck('name'),
  }));
  t.not(next.pid, firstPid, 'the next transaction runs on a new connection');
  t.same(next.names, [], 'and the write of the failed one never commits');
  const later = await withTenant(db, a.id, (tx) => tx('parties').where('number', `R-${tag}`).pluck('name'));
  t.same(later, [], 'nor later');
});

t.test('a closable transaction: its closing statement carries the COMMIT, and nothing runs after it', async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1, preparedStatements: true });
  t.teardown(() => db.destroy());
  const [a] = await twoCompanies(db);
  const tag = randomBytes(4).toString('hex');
  const insert = `insert into parties (company_id, vc, number, name, created_at) values (?, 'vendor', ?, ?, ?)
    returning id`;
  const messages: string[] = [];
  db.on('query', (q: { sql: string }) => messages.push(q.sql));
  const names = () =>
    withTenant(db, a.id, (tx) => tx('parties').where('number', 'like', `%-${tag}`).orderBy('number').pluck('name'));
  const close = (tx: Tx, name: string) =>
    closingQuery<{ id: number }>(tx, insert, [a.id, `${name}-${tag}`, name, new Date()]);

  // first use on the connection: prepared by an ordinary round trip, the COMMIT apart
  t.equal((await withTenant(db, a.id, (tx) => close(tx, 'a1'), { closable: true })).closed, false);
  messages.length = 0;
  let after: unknown;
  const closed = await withTenant(
    db,
    a.id,
    async (tx) => {
      const sent = await close(tx, 'a2');
      after = await Promise.resolve()
        .then(() => tx('parties').count())
        .catch((e: unknown) => e);
      return sent;
    },
    { closable: true },
  );
  t.equal(closed.closed, true, 'prepared on the connection: the statement closed the transaction');
  t.equal(closed.rows.length, 1, 'its rows come back');
  t.equal(messages.length, 1, 'one message: the opening, the statement and COMMIT');
  t.match(messages[0], /^begin; set local app\.company_id.*; execute p_[0-9a-f]+\(…\); commit$/);
  t.match(String(after), /TransactionOver/, 'a statement after the closing one is refused, not sent');
  t.same(await names(), ['a1', 'a2'], 'both committed');

  // where it may not close, it is an ordinary statement and the transaction goes on
  const notClosable = await withTenant(db, a.id, async (tx) => {
    const sent = await close(tx, 'b1');
    await tx('parties')
      .where({ number: `b1-${tag}` })
      .update({ name: 'b1, renamed' });
    return sent.closed;
  });
  t.equal(notClosable, false, 'not closable: withTenant commits after fn');
  const kept = await withTenant(
    db,
    a.id,
    async (tx) => {
      keepOpen(tx);
      return (await close(tx, 'b2')).closed;
    },
    { closable: true },
  );
  t.equal(kept, false, 'kept open: the same');
  const inSavepoint = await withTenant(db, a.id, (tx) => tx.transaction((sp) => close(sp, 'b3')), { closable: true });
  t.equal(inSavepoint.closed, false, 'in a savepoint: the same (its release follows)');
  t.same(await names(), ['a1', 'a2', 'b1, renamed', 'b2', 'b3']);

  // a failing closing statement: Postgres skips the COMMIT, and everything of the transaction is undone
  await t.rejects(
    withTenant(
      db,
      a.id,
      async (tx) => {
        await tx('parties').insert({ company_id: a.id, vc: 'vendor', number: `c1-${tag}`, name: 'c1' });
        return close(tx, 'a2');
      },
      { closable: true },
    ),
    /duplicate key|unique/,
  );
  t.same(await names(), ['a1', 'a2', 'b1, renamed', 'b2', 'b3'], 'nothing of the failed transaction stands');
  t.equal((await seen(db)).company, null, 'nothing left on the connection');

  // a remembered key's guard is answered before the statement can commit anything
  await t.rejects(
    withTenant(db, a.id, async (tx) => close(tx, 'd1'), { closable: true, guard: 'select false as unchanged' }),
    TenantGuardFailed,
  );
  t.notOk((await names()).includes('d1'), 'a failing guard: the closing statement never ran');
  let held = 0;
  messages.length = 0;
  const guarded = await withTenant(db, a.id, (tx) => close(tx, 'd2'), {
    closable: true,
    guard: 'select true as unchanged',
    guardHeld: () => held++,
  });
  t.equal(guarded.closed, true, 'a guard that holds: the statement closed the transaction');
  t.equal(messages.length, 1, 'in one message with the guard');
  t.equal(held, 1, 'the guard is reported held');
  t.ok((await names()).includes('d2'));
});

t.test(
  'a stale read (staleReadCheck) rolls the transaction back and runs it again where its owner allows',
  async (t) => {
    const db = createDb(TEST_DATABASE_URL, { poolMax: 1, preparedStatements: true });
    t.teardown(() => db.destroy());
    const [a] = await twoCompanies(db);
    const tag = randomBytes(4).toString('hex');
    // the check compares a bound value with the one the statement reads: the test decides per run whether it holds
    const insert = `with chk as (select ${staleReadCheck('? = ?')} as ok)
    insert into parties (company_id, vc, number, name, created_at) select ?, 'vendor', ?, ?, ? from chk returning id`;
    const names = () =>
      withTenant(db, a.id, (tx) => tx('parties').where('number', 'like', `%-${tag}`).orderBy('number').pluck('name'));
    const write = (tx: Tx, name: string, holds: boolean, closing: boolean) => {
      const values = [1, holds ? 1 : 2, a.id, `${name}-${tag}`, name, new Date()];
      return closing
        ? closingQuery<{ id: number }>(tx, insert, values)
        : preparedQuery<{ id: number }>(tx, insert, values);
    };
    // prepared on the connection first
    await withTenant(db, a.id, (tx) => write(tx, 'a0', true, false));

    const messages: string[] = [];
    db.on('query', (q: { sql: string }) => messages.push(q.sql));
    for (const closing of [true, false]) {
      const name = closing ? 'one message' : 'extended protocol';
      let runs = 0;
      messages.length = 0;
      let mayAgain: boolean | undefined;
      const result = await withTenant(
        db,
        a.id,
        async (tx) => {
          runs++;
          mayAgain ??= mayRunAgain(tx);
          // one message: the statement is the transaction's first, sent with the opening and COMMIT
          if (!closing)
            await tx('parties').insert({ company_id: a.id, vc: 'vendor', number: `x${runs}-${tag}`, name: 'x' });
          return write(tx, `${closing ? 'c' : 'e'}${runs}`, runs > 1, closing);
        },
        { closable: true },
      );
      t.equal(runs, 2, `${name}: the stale first run is run again`);
      t.equal(mayAgain, true, 'mayRunAgain: the owner allows a run again');
      t.equal(result.rows.length, 1);
      if (closing)
        t.same(
          messages.map((m) => (/^begin;.*; commit$/.test(m) ? 'whole' : m)),
          ['whole', 'rollback', 'whole'],
          'each run one message (the opening, the statement, COMMIT); the failed one rolled back',
        );
    }
    t.same(await names(), ['a0', 'c2', 'e2', 'x'], 'only the second runs wrote');

    // where the owner does not allow a run again, a stale read is an error and nothing stands
    let runs = 0;
    await t.rejects(
      withTenant(db, a.id, async (tx) => {
        runs++;
        t.equal(mayRunAgain(tx), false, 'mayRunAgain: not without the owner');
        return write(tx, 'n1', false, false);
      }),
      /stale read/,
    );
    t.equal(runs, 1, 'not run again');
    t.notOk((await names()).includes('n1'));
    t.equal((await seen(db)).company, null, 'nothing left on the connection');
  },
);

t.test(
  'RunAgain: after a closing statement that committed without its work, fn runs in a new transaction',
  async (t) => {
    const db = createDb(TEST_DATABASE_URL, { poolMax: 1, preparedStatements: true });
    t.teardown(() => db.destroy());
    const [a] = await twoCompanies(db);
    const tag = randomBytes(4).toString('hex');
    // takes the name only when it is free, as a document statement takes its number
    const insert = `insert into parties (company_id, vc, number, name) values (?, 'vendor', ?, ?)
    on conflict do nothing returning id`;
    const close = (tx: Tx, n: number) => closingQuery<{ id: number }>(tx, insert, [a.id, `n${n}-${tag}`, `n${n}`]);
    await withTenant(db, a.id, (tx) => close(tx, 1));
    await withTenant(db, a.id, (tx) => close(tx, 2));
    let runs = 0;
    const id = await withTenant(
      db,
      a.id,
      async (tx) => {
        runs++;
        const { rows, closed } = await close(tx, runs);
        if (rows[0]) return rows[0].id;
        if (closed) throw new RunAgain();
        throw new Error('not closed');
      },
      { closable: true },
    );
    t.equal(runs, 3, 'n1 and n2 taken: the third run writes');
    t.ok(id > 0);
    await t.rejects(
      withTenant(db, a.id, async (tx) => {
        await tx('parties').insert({ company_id: a.id, vc: 'vendor', number: `x-${tag}`, name: 'x' });
        throw new RunAgain();
      }),
      /RunAgain without a closing statement/,
      'asked without a closing statement that committed: an error, not a loop',
    );
    t.equal(
      (await withTenant(db, a.id, (tx) => tx('parties').where({ number: `x-${tag}` }))).length,
      0,
      'and what ran before it is rolled back',
    );
    t.equal((await seen(db)).company, null, 'nothing left on the connection');
  },
);
