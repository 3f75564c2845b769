import t from 'tap';
import { arapSetup, isZero, memberApi, SIDES } from '../../../test/arapHelpers.ts';

t.test('draft → approve with the complete document → posted (both sides)', async (t) => {
  const s = await arapSetup(t);
  for (const vc of SIDES) {
    const body = s.doc(vc);
    const draft = await s.api('POST', `/arap/transaction/${vc}`, body);
    t.equal(draft.status, 201);
    const d0 = (await s.api('GET', `/arap/transaction/${vc}/${draft.body.id}`)).body;
    t.equal(d0.status, 'draft');
    t.same(d0.postings, [], 'a draft is not in the books');

    const idOnly = await s.api('POST', `/arap/transaction/${vc}/${draft.body.id}/approve`, {});
    t.equal(idOnly.status, 400, 'empty body refused');
    t.match(idOnly.body.error.message, /complete document is required/);
    const withId = await s.api('POST', `/arap/transaction/${vc}/${draft.body.id}/approve`, {
      id: draft.body.id,
      pending: '0',
    });
    t.equal(withId.status, 400, 'id-only body refused');
    t.match(withId.body.error.message, /complete document is required/);
    const partial = await s.api('POST', `/arap/transaction/${vc}/${draft.body.id}/approve`, {
      [`${vc}_id`]: s.parties[vc].id,
      invDate: '2024-03-15',
      pending: '0',
    });
    t.equal(partial.status, 400, 'incomplete body refused');
    t.match(partial.body.error.message, /lines/);
    t.equal((await s.api('GET', `/arap/transaction/${vc}/${draft.body.id}`)).body.status, 'draft', 'still a draft');

    const approved = await s.api('POST', `/arap/transaction/${vc}/${draft.body.id}/approve`, {
      ...body,
      pending: '0',
      lines: [{ account: body.lines[0]!.account, amount: 200, taxAccount: body.lines[0]!.taxAccount }],
    });
    t.equal(approved.status, 200, JSON.stringify(approved.body));
    t.equal(approved.body.status, 'posted');
    t.equal(approved.body.grossAmount, 216.2, 'the body sent was saved, then posted');
    t.equal(approved.body.invNumber, d0.invNumber, 'number kept');
    t.equal(await s.entryCount(draft.body.id), 3);
    t.ok(isZero(await s.documentSum(draft.body.id)));

    const again = await s.api('POST', `/arap/transaction/${vc}/${draft.body.id}/approve`, { ...body, pending: '0' });
    t.equal(again.status, 409, 'a posted document cannot be approved again');
    t.same(
      (await s.audit(draft.body.id)).map((a: { action: string }) => a.action),
      ['create', 'approve'],
    );
  }
});

t.test('approve without pending implies posting', async (t) => {
  const s = await arapSetup(t);
  const body = s.doc('vendor');
  const draft = await s.api('POST', '/arap/transaction/vendor', body);
  const r = await s.api('POST', `/arap/transaction/vendor/${draft.body.id}/approve`, body);
  t.equal(r.status, 200);
  t.equal(r.body.status, 'posted');
});

t.test('permissions: a clerk saves drafts but cannot post', async (t) => {
  const s = await arapSetup(t);
  const clerk = await memberApi(s, s.co, 'clerk');
  const draft = await clerk('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal(draft.status, 201);
  const post = await clerk('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
  t.equal(post.status, 403);
  t.match(post.body.error.message, /vendors\.postings\.approve/);
  const approve = await clerk('POST', `/arap/transaction/vendor/${draft.body.id}/approve`, s.doc('vendor'));
  t.equal(approve.status, 403);
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('POST', '/arap/transaction/vendor', s.doc('vendor'))).status, 403);
  t.equal((await viewer('GET', `/arap/transaction/vendor/${draft.body.id}`)).status, 200, 'viewers read');
  const count = await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first());
  t.equal(Number(count?.n), 1, 'only the clerk’s draft exists');
});

t.test('approval limit in the base currency → amount_exceeded, nothing written', async (t) => {
  const s = await arapSetup(t);
  const limited = await memberApi(s, s.co, 'accountant', '100');
  const over = await limited('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' })); // 108.10 gross
  t.equal(over.status, 400);
  t.equal(over.body.error.code, 'amount_exceeded');
  t.match(
    over.body.error.message,
    /gross amount of 108\.10 CHF exceeds your approval limit of 100\.00 CHF/,
    'amounts to the minor unit',
  );
  t.equal(Number((await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first()))?.n), 0, 'nothing written');

  const fx = await limited(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { pending: '0', curr: 'EUR', exchangerate: 0.9 }),
  ); // 108.10 EUR = 97.29 CHF
  t.equal(fx.status, 201, 'compared in the base currency');

  const credit = await limited(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', { pending: '0', lines: [{ account: '3400', amount: -500 }] }),
  );
  t.equal(credit.body.error?.code, 'amount_exceeded', 'credit notes count by their absolute amount');

  const draft = await limited(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { lines: [{ account: '6500', amount: 10 }] }),
  );
  t.equal(draft.status, 201, 'drafts are not limited');
  const before = (await s.api('GET', `/arap/transaction/vendor/${draft.body.id}`)).body;
  const approveOver = await limited(
    'POST',
    `/arap/transaction/vendor/${draft.body.id}/approve`,
    s.doc('vendor', { lines: [{ account: '6500', amount: 500 }] }),
  );
  t.equal(approveOver.body.error.code, 'amount_exceeded');
  const after = (await s.api('GET', `/arap/transaction/vendor/${draft.body.id}`)).body;
  t.same(after, before, 'the draft stays as it was');
  const approveOk = await limited(
    'POST',
    `/arap/transaction/vendor/${draft.body.id}/approve`,
    s.doc('vendor', { lines: [{ account: '6500', amount: 100 }] }),
  );
  t.equal(approveOk.status, 200, 'exactly at the limit is allowed');

  const unlimited = await memberApi(s, s.co, 'accountant', null);
  t.equal(
    (
      await unlimited(
        'POST',
        '/arap/transaction/vendor',
        s.doc('vendor', { pending: '0', lines: [{ account: '6500', amount: 999999 }] }),
      )
    ).status,
    201,
  );
});

t.test('closed period → 422 for create, update, approve, delete and reverse', async (t) => {
  const s = await arapSetup(t);
  const posted = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { invDate: '2024-03-10', pending: '0' }),
  );
  const draft = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-03-20' }));
  const open = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-04-02' }));

  const accountant = await memberApi(s, s.co, 'accountant');
  const denied = await accountant('POST', '/system/close_books', { date: '2024-03-31' });
  t.equal(denied.status, 403, 'only owner/admin close the books');
  const bad = await s.api('POST', '/system/close_books', { date: '2024-02-31' });
  t.equal(bad.status, 400);
  const closed = await s.api('POST', '/system/close_books', { date: '2024-03-31' });
  t.equal(closed.status, 200);
  t.same(closed.body, { date: '2024-03-31' });

  const expect422 = (r: { status: number; body: any }, what: string) => {
    t.equal(r.status, 422, what);
    t.equal(r.body.error.code, 'closed_period', what);
  };
  expect422(
    await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-03-31' })),
    'create on the closing date',
  );
  t.equal(
    (await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-04-01' }))).status,
    201,
    'the day after is open',
  );
  expect422(
    await s.api('POST', `/arap/transaction/vendor/${draft.body.id}`, s.doc('vendor', { invDate: '2024-04-05' })),
    'update of a closed-period draft',
  );
  expect422(
    await s.api('POST', `/arap/transaction/vendor/${open.body.id}`, s.doc('vendor', { invDate: '2024-03-05' })),
    'update moving a document into the closed period',
  );
  expect422(
    await s.api(
      'POST',
      `/arap/transaction/vendor/${draft.body.id}/approve`,
      s.doc('vendor', { invDate: '2024-03-20' }),
    ),
    'approve',
  );
  expect422(await s.api('DELETE', `/arap/transaction/vendor/${draft.body.id}`), 'delete');
  const rev = await s.api('POST', `/arap/transaction/vendor/${posted.body.id}/reverse`, { date: '2024-03-31' });
  expect422(rev, 'reverse into the closed period');
  t.equal(rev.body.error.field, '/date');
  const revOpen = await s.api('POST', `/arap/transaction/vendor/${posted.body.id}/reverse`, { date: '2024-04-01' });
  t.equal(revOpen.status, 201, 'a closed-period document is reversed in an open period');

  const reopened = await s.api('POST', '/system/close_books', { date: '2024-02-29', reopen: true });
  t.equal(reopened.status, 200);
  t.equal((await s.api('DELETE', `/arap/transaction/vendor/${draft.body.id}`)).status, 204, 'reopened');
  const audit = await s.q((tx) =>
    tx('audit_log')
      .where({ entity: 'company' })
      .whereIn('action', ['close_books', 'reopen_books'])
      .orderBy('id')
      .select('action', 'details'),
  );
  t.same(audit, [
    { action: 'close_books', details: { closed_until: '2024-03-31', previous: null } },
    { action: 'reopen_books', details: { closed_until: '2024-02-29', previous: '2024-03-31' } },
  ]);
});

t.test('close_books: GET shows the date; moving it back needs reopen: true from an owner', async (t) => {
  const s = await arapSetup(t);
  const admin = await memberApi(s, s.co, 'admin');
  const accountant = await memberApi(s, s.co, 'accountant');
  t.strictSame((await s.api('GET', '/system/close_books')).body, { date: null }, 'never closed: null');
  t.equal((await admin('POST', '/system/close_books', { date: '2024-03-31' })).status, 200, 'admins close the books');
  const read = await accountant('GET', '/system/close_books');
  t.equal(read.status, 200, 'every member may read the date');
  t.strictSame(read.body, { date: '2024-03-31' });
  t.equal(
    (await s.api('POST', '/system/close_books', { date: '2024-04-30' })).status,
    200,
    'moving forward needs nothing more',
  );
  t.equal(
    (await s.api('POST', '/system/close_books', { date: '2024-04-30' })).status,
    200,
    'the same date again changes nothing',
  );

  const back = await s.api('POST', '/system/close_books', { date: '2024-01-31' });
  t.equal(back.status, 409, 'an earlier date is refused without reopen');
  t.equal(back.body.error.code, 'conflict');
  t.match(back.body.error.message, /2024-04-30.*reopen: true/);
  t.equal(back.body.error.field, '/date');
  const byAdmin = await admin('POST', '/system/close_books', { date: '2024-01-31', reopen: true });
  t.equal(byAdmin.status, 403, 'only owners reopen');
  t.equal(byAdmin.body.error.code, 'forbidden');
  t.match(byAdmin.body.error.message, /system\.reopen_books/);
  t.equal(
    (await s.api('POST', '/system/close_books', { date: '2024-01-31', reopen: 'yes' })).status,
    400,
    'reopen is a boolean',
  );
  t.strictSame((await s.api('GET', '/system/close_books')).body, { date: '2024-04-30' }, 'nothing changed');
  const audited = await s.q((tx) =>
    tx('audit_log').where({ entity: 'company', action: 'reopen_books' }).count({ n: '*' }).first(),
  );
  t.equal(Number(audited?.n), 0, 'refusals write no audit entry');

  const reopened = await s.api('POST', '/system/close_books', { date: '2024-01-31', reopen: true });
  t.equal(reopened.status, 200);
  t.strictSame(reopened.body, { date: '2024-01-31' });
  t.strictSame((await s.api('GET', '/system/close_books')).body, { date: '2024-01-31' });
  const entry = await s.api('GET', '/system/audit?entity=company&limit=1');
  t.match(
    entry.body[0],
    { action: 'reopen_books', user_id: s.co.userId, details: { closed_until: '2024-01-31', previous: '2024-04-30' } },
    'the reopening is audited',
  );
});

t.test('delete: drafts only', async (t) => {
  const s = await arapSetup(t);
  const draft = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', { files: [{ name: 'a.txt', data: 'data:text/plain;base64,aGk=' }] }),
  );
  const posted = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { pending: '0' }));
  const del = await s.api('DELETE', `/arap/transaction/customer/${draft.body.id}`);
  t.equal(del.status, 204);
  t.equal((await s.api('GET', `/arap/transaction/customer/${draft.body.id}`)).status, 404);
  t.equal((await s.api('DELETE', `/arap/transaction/customer/${draft.body.id}`)).status, 404);
  const delPosted = await s.api('DELETE', `/arap/transaction/customer/${posted.body.id}`);
  t.equal(delPosted.status, 409);
  t.equal(delPosted.body.error.code, 'conflict');
  const audit = await s.audit(draft.body.id);
  t.equal(audit.at(-1).action, 'delete');
  t.equal(audit.at(-1).details.previous.lines.length, 1, 'the deleted version is kept in the audit log');
  t.equal(audit.at(-1).via, 'api_key');
  t.equal(audit.at(-1).user_id, s.co.userId);
  const deleteParty = await s.api('DELETE', `/arap/customer/${s.parties.customer.id}`);
  t.equal(deleteParty.status, 409, 'a party with documents cannot be deleted');
});

t.test('reverse: a negated posted document; the original is reversed', async (t) => {
  const s = await arapSetup(t);
  const orig = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      curr: 'EUR',
      exchangerate: 0.93337,
      pending: '0',
      invDate: '2024-03-10',
      lines: [
        { account: '6500', amount: 10.01, taxAccount: '1170' },
        { account: '4000', amount: 10.01, taxAccount: '1171' },
      ],
    }),
  );
  const draft = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal(
    (await s.api('POST', `/arap/transaction/vendor/${draft.body.id}/reverse`, {})).status,
    409,
    'drafts are deleted, not reversed',
  );
  const early = await s.api('POST', `/arap/transaction/vendor/${orig.body.id}/reverse`, { date: '2024-03-09' });
  t.equal(early.status, 400, 'not before the document date');

  const rev = await s.api('POST', `/arap/transaction/vendor/${orig.body.id}/reverse`, { date: '2024-04-02' });
  t.equal(rev.status, 201);
  t.type(rev.body.id, 'number');
  const o = (await s.api('GET', `/arap/transaction/vendor/${orig.body.id}`)).body;
  const r = (await s.api('GET', `/arap/transaction/vendor/${rev.body.id}`)).body;
  t.equal(o.status, 'reversed');
  t.equal(o.reversedBy, rev.body.id);
  t.equal(r.status, 'posted');
  t.equal(r.reversalOf, orig.body.id);
  t.equal(r.invDate, '2024-04-02');
  t.equal(r.currency, 'EUR');
  t.equal(r.grossAmount, -o.grossAmount);
  t.same(
    r.lines.map((l: { amount: number; taxAmount: number }) => [l.amount, l.taxAmount]),
    o.lines.map((l: { amount: number; taxAmount: number }) => [-l.amount, -l.taxAmount]),
  );
  t.same(
    r.postings.map((p: { account: string; amount: number }) => [p.account, p.amount]),
    o.postings.map((p: { account: string; amount: number }) => [p.account, -p.amount]),
    'every ledger line cancelled, rounding line included',
  );
  const perAccount = await s.q((tx) =>
    tx('ledger_entries')
      .whereIn('transaction_id', [orig.body.id, rev.body.id])
      .groupBy('account_id')
      .select('account_id')
      .sum({ s: 'amount' }),
  );
  t.ok(
    perAccount.every((a: { s?: unknown }) => isZero(String(a.s))),
    'each account nets to zero',
  );
  const dates = await s.q((tx) =>
    tx('ledger_entries').where({ transaction_id: rev.body.id }).distinct('date').pluck('date'),
  );
  t.same(dates, ['2024-04-02'], 'reversal lines dated the given day');

  t.equal((await s.api('POST', `/arap/transaction/vendor/${orig.body.id}/reverse`, {})).status, 409, 'twice: 409');
  t.equal(
    (await s.api('POST', `/arap/transaction/vendor/${rev.body.id}/reverse`, {})).status,
    409,
    'a reversal is not reversed',
  );
  t.equal(
    (await s.api('POST', `/arap/transaction/vendor/${orig.body.id}`, s.doc('vendor'))).status,
    409,
    'a reversed document is not updated',
  );
  t.equal(
    (await s.api('POST', `/arap/transaction/vendor/${rev.body.id}`, s.doc('vendor'))).status,
    409,
    'nor its reversal',
  );
  const clerk = await memberApi(s, s.co, 'clerk');
  const p2 = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
  t.equal(
    (await clerk('POST', `/arap/transaction/vendor/${p2.body.id}/reverse`, {})).status,
    403,
    'reverse needs vendors.postings.reverse',
  );
  const today = await s.api('POST', `/arap/transaction/vendor/${p2.body.id}/reverse`); // no body at all
  t.equal(today.status, 201, 'date defaults to today');
  t.equal(
    (await s.api('GET', `/arap/transaction/vendor/${today.body.id}`)).body.invDate,
    new Date().toISOString().slice(0, 10),
  );
  t.ok(isZero(await s.companySum()));
});

t.test(
  'update: lines replaced; posted documents re-posted atomically while unpaid; audit keeps the previous version',
  async (t) => {
    const s = await arapSetup(t);
    const draft = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', {
        lines: [
          { account: '6500', amount: 10 },
          { account: '4000', amount: 20 },
        ],
      }),
    );
    const up = await s.api(
      'POST',
      `/arap/transaction/vendor/${draft.body.id}`,
      s.doc('vendor', { documentNumber: 'NEW-1', lines: [{ account: '6000', amount: 5 }] }),
    );
    t.equal(up.status, 200);
    t.equal(up.body.status, 'draft', 'a draft stays a draft');
    t.same(
      up.body.lines.map((l: { account: string }) => l.account),
      ['6000'],
      'lines replaced',
    );
    t.equal(up.body.documentNumber, 'NEW-1');
    const incomplete = await s.api('POST', `/arap/transaction/vendor/${draft.body.id}`, { documentNumber: 'X' });
    t.equal(incomplete.status, 400);
    t.match(incomplete.body.error.message, /complete document/);

    const posted = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', { pending: '0', files: [{ name: 'a.txt', data: 'data:text/plain;base64,aGk=' }] }),
    );
    const before = (await s.api('GET', `/arap/transaction/vendor/${posted.body.id}`)).body;
    const changed = await s.api(
      'POST',
      `/arap/transaction/vendor/${posted.body.id}`,
      s.doc('vendor', {
        invDate: '2024-05-01',
        lines: [
          { account: '6000', amount: 300, taxAccount: '1170' },
          { account: '6500', amount: 1 },
        ],
        files: [{ name: 'b.txt', data: 'data:text/plain;base64,aG8=' }],
      }),
    );
    t.equal(changed.status, 200, JSON.stringify(changed.body));
    t.equal(changed.body.status, 'posted');
    t.equal(changed.body.grossAmount, 325.3);
    t.same(
      changed.body.postings.map((p: { account: string; amount: number }) => [p.account, p.amount]),
      [
        ['6000', 300],
        ['6500', 1],
        ['1170', 24.3],
        ['2000', -325.3],
      ],
    );
    t.same(
      changed.body.files.map((f: { name: string }) => f.name),
      ['a.txt', 'b.txt'],
      'files sent are added',
    );
    const dates = await s.q((tx) =>
      tx('ledger_entries').where({ transaction_id: posted.body.id }).distinct('date').pluck('date'),
    );
    t.same(dates, ['2024-05-01'], 'ledger lines follow the new date');
    t.ok(isZero(await s.documentSum(posted.body.id)));
    const audit = await s.audit(posted.body.id);
    t.equal(audit.at(-1).action, 'update');
    t.same(audit.at(-1).details.previous.lines, before.lines, 'previous lines kept');
    t.same(audit.at(-1).details.previous.postings, before.postings, 'previous postings kept');

    const failing = await s.api(
      'POST',
      `/arap/transaction/vendor/${posted.body.id}`,
      s.doc('vendor', {
        lines: [
          { account: '6000', amount: 1 },
          { account: '3000', amount: 1 },
        ],
      }),
    );
    t.equal(failing.status, 400);
    t.same(
      (await s.api('GET', `/arap/transaction/vendor/${posted.body.id}`)).body,
      changed.body,
      'a refused update changes nothing',
    );

    const other = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invNumber: 'MINE-1' }));
    t.equal(other.status, 201);
    const taken = await s.api(
      'POST',
      `/arap/transaction/vendor/${posted.body.id}`,
      s.doc('vendor', { invNumber: 'MINE-1' }),
    );
    t.equal(taken.status, 409);
    const renamed = await s.api(
      'POST',
      `/arap/transaction/vendor/${posted.body.id}`,
      s.doc('vendor', { invNumber: 'MINE-2' }),
    );
    t.equal(renamed.body.invNumber, 'MINE-2');

    const payment = await s.api('POST', '/arap/payment/vendor', {
      document_id: posted.body.id,
      date: '2024-03-20',
      amount: 10,
      account: '1020',
    });
    t.equal(payment.status, 201, 'a real payment of 10.00');
    const paid = await s.api('POST', `/arap/transaction/vendor/${posted.body.id}`, s.doc('vendor'));
    t.equal(paid.status, 409, 'a document with payments cannot be changed');
    t.match(paid.body.error.message, /payments/);

    const clerk = await memberApi(s, s.co, 'clerk');
    const p2 = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
    t.equal(
      (await clerk('POST', `/arap/transaction/vendor/${p2.body.id}`, s.doc('vendor'))).status,
      403,
      'changing the books needs the approve permission',
    );
    t.equal(
      (await clerk('POST', `/arap/transaction/vendor/${draft.body.id}`, s.doc('vendor'))).status,
      200,
      'drafts may be edited by a clerk',
    );
    const limited = await memberApi(s, s.co, 'accountant', '50');
    const overUpdate = await limited(
      'POST',
      `/arap/transaction/vendor/${p2.body.id}`,
      s.doc('vendor', { lines: [{ account: '6500', amount: 60 }] }),
    );
    t.equal(
      overUpdate.body.error?.code,
      'amount_exceeded',
      'the approval limit applies to updates of posted documents',
    );
    const postViaUpdate = await s.api(
      'POST',
      `/arap/transaction/vendor/${draft.body.id}`,
      s.doc('vendor', { pending: '0' }),
    );
    t.equal(postViaUpdate.body.status, 'posted', 'pending "0" on an update posts a draft');
  },
);
