/**
 * Every list contract (`list: true`) pages the same way: `limit` and `offset` in its query,
 * `X-Total-Count` with the rows of the whole list, `Link` rel="next" while rows remain and
 * rel="prev" after the first page. The sweep seeds a company with at least two rows in
 * every list, so each list must actually cut a page of one row and link to the next.
 */
import t from 'tap';
import { CONTRACTS, forSide, sidesOf, type Contract, type Side } from '@ledger/shared';
import { arapSetup } from '../../test/arapHelpers.ts';
import { fixture } from '../../test/fixtures/inbox/fixtures.ts';

const LIST_CONTRACTS = CONTRACTS.filter((c) => c.list);

type QuerySchema = { properties?: Record<string, { minimum?: number; maximum?: number; default?: number }> };

t.test('every list contract takes limit (1–1000) and offset in its query', async (t) => {
  t.ok(LIST_CONTRACTS.length >= 19, 'the lists are found');
  for (const c of LIST_CONTRACTS) {
    for (const side of sidesOf(c)) {
      const query = (c.query ? forSide(c.query, side) : undefined) as QuerySchema | undefined;
      const { limit, offset } = query?.properties ?? {};
      t.match(limit, { minimum: 1, maximum: 1000 }, `${c.name}: limit`);
      t.match(offset, { minimum: 0, default: 0 }, `${c.name}: offset`);
    }
  }
});

t.test('every list: a page of limit rows, X-Total-Count of all, Link next and prev', async (t) => {
  const s = await arapSetup(t);
  const ok = async (what: string, res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  // two of everything a list shows
  const vendor = s.parties.vendor.id;
  await ok('vendor', s.api('POST', '/arap/vendor', { name: 'Second Vendor' }));
  await ok('customer', s.api('POST', '/arap/customer', { name: 'Second Customer' }));
  await ok('API key', s.api('POST', '/system/api_keys', { label: 'second' }));
  await s.co.addMember('accountant');
  for (const email of ['first.invited@example.test', 'second.invited@example.test'])
    await ok('invitation', s.api('POST', '/system/invitations', { email, role: 'clerk' }));
  for (const description of ['Consulting', 'Travel'])
    await ok('service', s.api('POST', '/arap/services', { description, price: 100 }));
  const payee = await ok(
    'vendor bank account',
    s.api('POST', `/arap/vendor/${vendor}/bank_accounts`, { iban: 'DE89370400440532013000' }),
  );
  await ok(
    'vendor bank account',
    s.api('POST', `/arap/vendor/${vendor}/bank_accounts`, { iban: 'CH93 0076 2011 6238 5295 7' }),
  );
  const bank = await ok(
    'bank account',
    s.api('POST', '/bank/accounts', {
      name: 'Main',
      iban: 'CH93 0076 2011 6238 5295 7',
      currency: 'CHF',
      account: '1020',
    }),
  );
  await ok(
    'bank account',
    s.api('POST', '/bank/accounts', { name: 'Euro', iban: 'DE89370400440532013000', currency: 'EUR', account: '1020' }),
  );
  const attachment = { name: 'note.txt', data: `data:text/plain;base64,${Buffer.from('a').toString('base64')}` };
  for (const vc of ['vendor', 'customer'] as const) {
    for (const n of [1, 2]) {
      const extra = vc === 'vendor' ? { payment_file: 1, vc_bank_id: payee.id } : {};
      const files = [{ ...attachment, data: `data:text/plain;base64,${Buffer.from(`${vc} ${n}`).toString('base64')}` }];
      const posted = await ok(
        `${vc} transaction`,
        s.api('POST', `/arap/transaction/${vc}`, s.doc(vc, { pending: '0', files, ...extra })),
      );
      await ok(
        `${vc} payment`,
        s.api('POST', `/arap/payment/${vc}`, {
          document_id: posted.id,
          date: '2024-03-20',
          amount: 10,
          account: '1020',
        }),
      );
      // one payment file per bill: the second file only finds the second bill
      if (vc === 'vendor')
        await ok(
          'payment file',
          s.api('POST', '/bank/payment_files', { bank_account_id: bank.id, execution_date: `2024-04-1${n}` }),
        );
      await ok(
        `${vc} invoice`,
        s.api('POST', `/arap/invoice/${vc}`, {
          [`${vc}_id`]: s.parties[vc].id,
          invDate: '2024-03-15',
          items: [{ description: 'Work', quantity: 1, price: 50, account: vc === 'vendor' ? '6500' : '3400' }],
        }),
      );
    }
  }
  for (const reference of ['JE-1', 'JE-2']) {
    await ok(
      'journal entry',
      s.api('POST', '/gl/transactions', {
        reference,
        transdate: '2024-03-15',
        lines: [
          { account: '6000', debit: 10 },
          { account: '1020', credit: 10 },
        ],
      }),
    );
  }
  for (const from of ['2024-01-01', '2024-04-01']) {
    const to = from === '2024-01-01' ? '2024-03-31' : '2024-06-30';
    await ok('VAT return', s.api('POST', '/reports/vat/returns', { from, to }));
  }
  for (const description of ['Audit', 'Tax return']) {
    await ok(
      'quote',
      s.api('POST', '/arap/quote/customer', {
        customer_id: s.parties.customer.id,
        invDate: '2024-03-15',
        valid_until: '2024-04-30',
        items: [{ description, quantity: 1, price: 100, account: '3400' }],
      }),
    );
  }
  for (const description of ['Rent', 'Retainer']) {
    await ok(
      'recurring invoice',
      s.api('POST', '/arap/recurring/customer', {
        template: {
          customer_id: s.parties.customer.id,
          items: [{ description, quantity: 1, price: 100, account: '3400' }],
        },
        schedule: { every: 1, unit: 'month', day: 1, start: '2024-04-01' },
        mode: 'draft',
      }),
    );
  }
  // two dunning runs: a posted, overdue invoice reaches level 1, then level 2
  await ok(
    'overdue invoice',
    s.api('POST', '/arap/invoice/customer', {
      customer_id: s.parties.customer.id,
      invDate: '2024-03-15',
      dueDate: '2024-04-14',
      pending: '0',
      items: [{ description: 'Overdue', quantity: 1, price: 80, account: '3400' }],
    }),
  );
  const text = { de: 'Bitte zahlen', fr: 'Merci de payer', it: 'Si prega di pagare', en: 'Please pay' };
  await ok(
    'dunning levels',
    s.api('POST', '/system/company', {
      dunning: {
        levels: [
          { days: 10, fee: 0, text },
          { days: 40, fee: 0, text },
        ],
      },
    }),
  );
  for (const date of ['2025-01-01', '2025-06-01'])
    await ok('dunning run', s.api('POST', '/arap/dunning/run', { date, dry_run: false }));
  const csv =
    'date,amount,currency,counterparty,iban,reference,description\n2024-06-01,10.00,CHF,Anna,,,one\n' +
    '2024-06-02,20.00,CHF,Beat,,,two\n';
  await ok(
    'bank import',
    s.api('POST', `/bank/transactions/import?account=${bank.id}`, csv, { 'Content-Type': 'text/csv' }),
  );
  for (const [name, type] of [
    ['no-qr.pdf', 'application/pdf'],
    ['qr-bill-photo.png', 'image/png'],
  ] as const) {
    await ok(
      'inbox upload',
      s.api('POST', '/documents/inbox', { name, data: `data:${type};base64,${fixture(name).toString('base64')}` }),
    );
  }

  /** The contract's path for a side, its ids filled with the seeded records'. */
  const pathOf = (c: Contract, side: Side | undefined) =>
    (side ? c.path.replace(':vc', side) : c.path).replace('/arap/vendor/:id/', `/arap/vendor/${vendor}/`);
  for (const c of LIST_CONTRACTS) {
    for (const side of sidesOf(c)) {
      const path = pathOf(c, side);
      const name = side ? `${c.name} (${side})` : c.name;
      t.notMatch(path, /:/, `${name}: every path parameter filled`);
      const first = await s.api('GET', `${path}?limit=1`);
      t.equal(first.status, 200, `${name}: 200`);
      const total = Number(first.headers.get('x-total-count'));
      t.ok(total >= 2, `${name}: X-Total-Count counts the whole list (${first.headers.get('x-total-count')})`);
      t.equal(first.body.length, 1, `${name}: limit=1 answers one row`);
      t.match(
        first.headers.get('link'),
        /[?&]offset=1>; rel="next"$/,
        `${name}: Link rel="next", no prev on the first page`,
      );
      t.match(first.headers.get('link'), /[?&]limit=1[&>]/, `${name}: the next page keeps limit`);
      const second = await s.api('GET', `${path}?limit=1&offset=1`);
      t.equal(second.headers.get('x-total-count'), String(total), `${name}: the same total on every page`);
      t.equal(second.body.length, 1, `${name}: the second page`);
      t.not(JSON.stringify(second.body[0]), JSON.stringify(first.body[0]), `${name}: another row`);
      t.match(second.headers.get('link'), /[?&]offset=0>; rel="prev"/, `${name}: Link rel="prev"`);
      const last = await s.api('GET', `${path}?limit=1000&offset=${total - 1}`);
      t.equal(last.body.length, 1, `${name}: the last row`);
      t.notMatch(last.headers.get('link') ?? '', /rel="next"/, `${name}: no next after the last row`);
      const bad = await s.api('GET', `${path}?limit=0`);
      t.equal(bad.status, 400, `${name}: limit 0 is refused`);
      t.equal(bad.body.error.field, '/limit');
    }
  }
});
