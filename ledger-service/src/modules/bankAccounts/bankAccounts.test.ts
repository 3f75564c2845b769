import t from 'tap';
import { arapSetup, memberApi } from '../../../test/arapHelpers.ts';

t.test('vendor bank accounts: IBAN mod-97 and BIC format', async (t) => {
  const s = await arapSetup(t);
  const v = s.parties.vendor.id;
  const ok = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, {
    iban: 'CH93 0076 2011 6238 5295 7',
    bic: 'ubswchzh80a',
    name: 'Acme AG',
  });
  t.equal(ok.status, 201);
  t.type(ok.body.id, 'number');
  const list = await s.api('GET', `/arap/vendor/${v}/bank_accounts`);
  t.same(
    list.body,
    [{ id: ok.body.id, vendor_id: v, iban: 'CH9300762011623852957', bic: 'UBSWCHZH80A', name: 'Acme AG' }],
    'stored in electronic format',
  );

  const badCheck = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'CH9300762011623852958' });
  t.equal(badCheck.status, 400, 'wrong check digits');
  t.equal(badCheck.body.error.field, '/iban');
  const badLength = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE8937040044053201300' });
  t.equal(badLength.status, 400, 'wrong length for the country');
  const badBic = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, {
    iban: 'DE89370400440532013000',
    bic: 'DEUT12XX',
  });
  t.equal(badBic.status, 400);
  t.equal(badBic.body.error.field, '/bic');
  t.equal((await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { bic: 'DEUTDEFF' })).body.error.field, '/iban');
  t.equal(
    (await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE89370400440532013000', extra: 1 })).body.error
      .field,
    '/extra',
  );

  t.equal((await s.api('GET', '/arap/vendor/999999/bank_accounts')).status, 404);
  t.equal(
    (await s.api('POST', `/arap/vendor/${s.parties.customer.id}/bank_accounts`, { iban: 'DE89370400440532013000' }))
      .status,
    404,
    'customers have no vendor bank accounts',
  );
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE89370400440532013000' })).status, 403);
  t.equal((await viewer('GET', `/arap/vendor/${v}/bank_accounts`)).status, 200);
});

t.test('payment_file with vc_bank_id: stored and listed for the payment file', async (t) => {
  const s = await arapSetup(t);
  const v = s.parties.vendor.id;
  const bank = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, {
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
  });
  const other = await s.api('POST', '/arap/vendor', { name: 'Other Vendor' });
  const otherBank = await s.api('POST', `/arap/vendor/${other.body.id}/bank_accounts`, {
    iban: 'CH9300762011623852957',
  });

  const flagged = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { pending: '0', payment_file: 1, vc_bank_id: bank.body.id }),
  );
  t.equal(flagged.status, 201);
  const flaggedDraft = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { payment_file: 1, vc_bank_id: bank.body.id }),
  );
  const plain = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
  t.equal(plain.status, 201);

  const d = (await s.api('GET', `/arap/transaction/vendor/${flagged.body.id}`)).body;
  t.equal(d.payment_file, 1);
  t.equal(d.vc_bank_id, bank.body.id);
  const list = await s.api('GET', '/arap/transactions/vendor?payment_file=1&status=posted');
  t.same(
    list.body.map((r: { id: number }) => r.id),
    [flagged.body.id],
  );
  t.equal(list.body[0].vc_bank_id, bank.body.id);
  t.same(
    (await s.api('GET', '/arap/transactions/vendor?payment_file=1')).body.map((r: { id: number }) => r.id),
    [flagged.body.id, flaggedDraft.body.id],
  );

  const noBank = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { payment_file: 1 }));
  t.equal(noBank.status, 400);
  t.equal(noBank.body.error.field, '/vc_bank_id');
  const foreign = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { payment_file: 1, vc_bank_id: otherBank.body.id }),
  );
  t.equal(foreign.status, 400, "another vendor's bank account");
  t.equal(foreign.body.error.field, '/vc_bank_id');
  const missing = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { vc_bank_id: 999999 }));
  t.equal(missing.status, 400);
  const customer = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { payment_file: 1 }));
  t.equal(customer.status, 400, 'payment_file is a vendor field');
  t.equal(customer.body.error.field, '/payment_file');
});

t.test(
  'update a vendor bank account: partial, checked as on create; the IBAN is fixed once a booked document names it',
  async (t) => {
    const s = await arapSetup(t);
    const v = s.parties.vendor.id;
    const base = `/arap/vendor/${v}/bank_accounts`;
    const created = await s.api('POST', base, {
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      name: 'Acme GmbH',
      description: 'main',
    });
    const path = `${base}/${created.body.id}`;

    const renamed = await s.api('POST', path, { name: 'Acme Supplies GmbH', bic: null });
    t.equal(renamed.status, 200, JSON.stringify(renamed.body));
    t.same(
      renamed.body,
      {
        id: created.body.id,
        vendor_id: v,
        iban: 'DE89370400440532013000',
        name: 'Acme Supplies GmbH',
        description: 'main',
      },
      'only the fields sent; null cleared the BIC',
    );
    t.same((await s.api('GET', base)).body, [renamed.body], 'the list shows it');
    const { id: _id, vendor_id: _vendor, ...readBack } = renamed.body;
    t.equal((await s.api('POST', path, readBack)).status, 200, 'the fields of a read sent back are a valid update');
    const moved = await s.api('POST', path, { iban: 'ch93 0076 2011 6238 5295 7', bic: 'ubswchzh80a' });
    t.same([moved.body.iban, moved.body.bic], ['CH9300762011623852957', 'UBSWCHZH80A'], 'normalized as on create');

    const refused = async (body: unknown, status: number, field: string | undefined, what: string, at = path) => {
      const r = await s.api('POST', at, body);
      t.equal(r.status, status, `${what}: ${status}`);
      t.equal(r.body?.error?.field, field, `${what}: field`);
    };
    await refused({ iban: 'CH9300762011623852958' }, 400, '/iban', 'bad check digits');
    await refused({ bic: 'DEUT12XX' }, 400, '/bic', 'bad BIC');
    await refused({}, 400, undefined, 'empty body');
    await refused({ colour: 'blue' }, 400, '/colour', 'unknown field');
    await refused({ id: created.body.id, name: 'x' }, 400, '/id', "the ids are the path's");
    await refused({ name: 'x' }, 404, undefined, 'unknown account', `${base}/999999`);
    await refused(
      { name: 'x' },
      404,
      undefined,
      'a customer has none',
      `/arap/vendor/${s.parties.customer.id}/bank_accounts/${created.body.id}`,
    );
    const other = await s.api('POST', '/arap/vendor', { name: 'Other Vendor' });
    await refused(
      { name: 'x' },
      404,
      undefined,
      "another vendor's path",
      `/arap/vendor/${other.body.id}/bank_accounts/${created.body.id}`,
    );

    // a draft follows a change of IBAN; a posted bill fixes it
    const draft = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', { payment_file: 1, vc_bank_id: created.body.id }),
    );
    t.equal(
      (await s.api('POST', path, { iban: 'DE89370400440532013000' })).status,
      200,
      'only a draft names it: the IBAN may change',
    );
    const posted = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', { pending: '0', payment_file: 1, vc_bank_id: created.body.id }),
    );
    t.equal(posted.status, 201);
    const fixed = await s.api('POST', path, { iban: 'CH9300762011623852957' });
    t.equal(fixed.status, 409, 'a posted bill is paid to this IBAN');
    t.equal(fixed.body.error.code, 'conflict');
    t.equal(fixed.body.error.field, '/iban');
    t.match(
      fixed.body.error.message,
      (await s.api('GET', `/arap/transaction/vendor/${posted.body.id}`)).body.invNumber,
    );
    t.equal((await s.api('GET', base)).body[0].iban, 'DE89370400440532013000', 'unchanged');
    t.equal(
      (await s.api('POST', path, { name: 'Acme AG', iban: 'DE89 3704 0044 0532 0130 00' })).status,
      200,
      'the same IBAN written otherwise, and the name, may still change',
    );
    t.equal((await s.api('GET', `/arap/transaction/vendor/${draft.body.id}`)).body.vc_bank_id, created.body.id);

    const audit = await s.q((tx) =>
      tx('audit_log')
        .where({ entity: 'vendor_bank_account', entity_id: String(created.body.id) })
        .orderBy('id')
        .select('action', 'details'),
    );
    t.same(
      audit.map((a: { action: string }) => a.action),
      ['create', 'update', 'update', 'update', 'update', 'update'],
      'every change audited, the refused ones not',
    );
    t.same(audit[2].details, { vendor_id: v, fields: [] }, 'a read sent back changes nothing');
    t.same(
      audit[3].details,
      { vendor_id: v, fields: ['iban', 'bic'], iban: 'CH9300762011623852957', previous_iban: 'DE89370400440532013000' },
      'an IBAN change keeps the old one',
    );

    const viewer = await memberApi(s, s.co, 'viewer');
    t.equal((await viewer('POST', path, { name: 'x' })).status, 403);
    const clerk = await memberApi(s, s.co, 'clerk');
    t.equal((await clerk('POST', path, { description: 'by the clerk' })).status, 200, 'clerks maintain vendors');
  },
);

t.test('delete a vendor bank account: 204 while no document names it, else 409', async (t) => {
  const s = await arapSetup(t);
  const v = s.parties.vendor.id;
  const base = `/arap/vendor/${v}/bank_accounts`;
  const unused = await s.api('POST', base, { iban: 'CH9300762011623852957' });
  const used = await s.api('POST', base, { iban: 'DE89370400440532013000' });

  t.equal(
    (await s.api('DELETE', `/arap/vendor/${s.parties.customer.id}/bank_accounts/${unused.body.id}`)).status,
    404,
    'not through another party',
  );
  const gone = await s.api('DELETE', `${base}/${unused.body.id}`);
  t.equal(gone.status, 204);
  t.same(
    (await s.api('GET', base)).body.map((b: { id: number }) => b.id),
    [used.body.id],
    'gone from the list',
  );
  t.equal((await s.api('DELETE', `${base}/${unused.body.id}`)).status, 404, 'twice: not found');

  const draft = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { payment_file: 1, vc_bank_id: used.body.id }),
  );
  const byDraft = await s.api('DELETE', `${base}/${used.body.id}`);
  t.equal(byDraft.status, 409, 'a draft names it');
  t.match(byDraft.body.error.message, /named by 1 document/);
  t.equal(
    (
      await s.api(
        'POST',
        `/arap/transaction/vendor/${draft.body.id}`,
        s.doc('vendor', { pending: '0', payment_file: 1, vc_bank_id: used.body.id }),
      )
    ).status,
    200,
  );
  t.equal((await s.api('DELETE', `${base}/${used.body.id}`)).status, 409, 'a posted bill names it');
  t.equal((await s.api('GET', base)).body.length, 1, 'still there');

  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('DELETE', `${base}/${used.body.id}`)).status, 403);
  const audit = await s.q((tx) =>
    tx('audit_log').where({ entity: 'vendor_bank_account' }).orderBy('id').select('action', 'entity_id'),
  );
  t.same(
    audit.map((a) => [a.action, Number(a.entity_id)]),
    [
      ['create', unused.body.id],
      ['create', used.body.id],
      ['delete', unused.body.id],
    ],
  );
});
