import t from 'tap';
import { arapSetup, CHART, SIDES, type Vc } from '../../../test/arapHelpers.ts';

type Case = [
  name: string,
  patch: (d: Record<string, any>) => void,
  status: number,
  code: string,
  field: string | RegExp,
];

const line0 = (d: Record<string, any>) => d.lines[0] as Record<string, unknown>;

function cases(vc: Vc, party: { id: number; number: string }): Case[] {
  const c = CHART[vc];
  const other = vc === 'vendor' ? 'customer' : 'vendor';
  return [
    [
      'type must be transaction',
      (d) => {
        d.type = 'invoice';
      },
      400,
      'invalid_request',
      '/type',
    ],
    [
      'unknown field named',
      (d) => {
        d.colour = 'red';
      },
      400,
      'invalid_request',
      '/colour',
    ],
    [
      'unknown line field named',
      (d) => {
        line0(d).qty = 1;
      },
      400,
      'invalid_request',
      '/lines/0/qty',
    ],
    [
      'the other side’s party field',
      (d) => {
        d[`${other}_id`] = 1;
      },
      400,
      'invalid_request',
      `/${other}_id`,
    ],
    [
      'currency on write',
      (d) => {
        d.currency = 'CHF';
      },
      400,
      'invalid_currency',
      '/curr',
    ],
    [
      'curr not three letters',
      (d) => {
        d.curr = 'CHFX';
      },
      400,
      'invalid_currency',
      '/curr',
    ],
    [
      'curr lowercase',
      (d) => {
        d.curr = 'chf';
      },
      400,
      'invalid_currency',
      '/curr',
    ],
    [
      'curr unknown ISO code',
      (d) => {
        d.curr = 'XYZ';
      },
      400,
      'invalid_currency',
      '/curr',
    ],
    [
      'curr a number',
      (d) => {
        d.curr = 756;
      },
      400,
      'invalid_currency',
      '/curr',
    ],
    [
      'invDate not a calendar date',
      (d) => {
        d.invDate = '2024-02-30';
      },
      400,
      'invalid_request',
      '/invDate',
    ],
    [
      'invDate wrong format',
      (d) => {
        d.invDate = '15.03.2024';
      },
      400,
      'invalid_request',
      '/invDate',
    ],
    [
      'invDate missing',
      (d) => {
        delete d.invDate;
      },
      400,
      'invalid_request',
      '/invDate',
    ],
    [
      'dueDate before invDate',
      (d) => {
        d.dueDate = '2024-03-01';
      },
      400,
      'invalid_request',
      '/dueDate',
    ],
    [
      'amount as a string',
      (d) => {
        line0(d).amount = '100.00';
      },
      400,
      'invalid_request',
      '/lines/0/amount',
    ],
    [
      'amount with too many decimals',
      (d) => {
        line0(d).amount = 10.123;
      },
      400,
      'invalid_request',
      '/lines/0/amount',
    ],
    [
      'taxAmount with too many decimals',
      (d) => {
        line0(d).taxAmount = 8.105;
      },
      400,
      'invalid_request',
      '/lines/0/taxAmount',
    ],
    [
      'JPY amount with decimals',
      (d) => {
        d.curr = 'JPY';
        d.exchangerate = 0.006;
        line0(d).amount = 10.5;
      },
      400,
      'invalid_request',
      '/lines/0/amount',
    ],
    [
      'exchangerate zero',
      (d) => {
        d.curr = 'EUR';
        d.exchangerate = 0;
      },
      400,
      'invalid_request',
      '/exchangerate',
    ],
    [
      'exchangerate as a string',
      (d) => {
        d.curr = 'EUR';
        d.exchangerate = '0.95';
      },
      400,
      'invalid_request',
      '/exchangerate',
    ],
    [
      'exchangerate ≠ 1 in the base currency',
      (d) => {
        d.exchangerate = 1.1;
      },
      400,
      'invalid_request',
      '/exchangerate',
    ],
    [
      'no party',
      (d) => {
        delete d[`${vc}_id`];
      },
      400,
      'invalid_request',
      `/${vc}_id`,
    ],
    [
      'unknown party number',
      (d) => {
        delete d[`${vc}_id`];
        d[`${vc}number`] = 'NOPE-1';
      },
      400,
      'vc_not_found',
      `/${vc}number`,
    ],
    [
      'unknown party id',
      (d) => {
        d[`${vc}_id`] = 987654;
      },
      400,
      'vc_not_found',
      `/${vc}_id`,
    ],
    [
      'id and number disagree',
      (d) => {
        d[`${vc}number`] = `${party.number}-other`;
      },
      400,
      'vc_not_found',
      `/${vc}number`,
    ],
    [
      'recordAccount of the other side',
      (d) => {
        d.recordAccount = c.otherControl;
      },
      400,
      'invalid_request',
      '/recordAccount',
    ],
    [
      'recordAccount unknown',
      (d) => {
        d.recordAccount = '9999';
      },
      400,
      'invalid_request',
      '/recordAccount',
    ],
    [
      'line account not usable on this side',
      (d) => {
        line0(d).account = c.wrongLine;
      },
      400,
      'invalid_request',
      '/lines/0/account',
    ],
    [
      'line account unknown',
      (d) => {
        line0(d).account = '8888';
      },
      400,
      'invalid_request',
      '/lines/0/account',
    ],
    [
      'tax account of the other side',
      (d) => {
        line0(d).taxAccount = c.wrongTax;
      },
      400,
      'invalid_request',
      '/lines/0/taxAccount',
    ],
    [
      'tax account without a rate on invDate',
      (d) => {
        d.invDate = '2017-06-01';
      },
      400,
      'invalid_request',
      '/lines/0/taxAccount',
    ],
    [
      'taxAmount without taxAccount',
      (d) => {
        delete line0(d).taxAccount;
        line0(d).taxAmount = 1;
      },
      400,
      'invalid_request',
      '/lines/0/taxAmount',
    ],
    [
      'no lines',
      (d) => {
        d.lines = [];
      },
      400,
      'invalid_request',
      '/lines',
    ],
    [
      'pending other than "0"',
      (d) => {
        d.pending = '1';
      },
      400,
      'invalid_request',
      '/pending',
    ],
    [
      'pending as a number other than 0',
      (d) => {
        d.pending = 1;
      },
      400,
      'invalid_request',
      '/pending',
    ],
    [
      'taxincluded not boolean',
      (d) => {
        d.taxincluded = 'true';
      },
      400,
      'invalid_request',
      '/taxincluded',
    ],
    [
      'file without media type',
      (d) => {
        d.files = [{ name: 'a.pdf', data: 'data:;base64,aGVsbG8=' }];
      },
      400,
      'invalid_request',
      '/files/0/data',
    ],
    [
      'file not a data URI',
      (d) => {
        d.files = [{ name: 'a.pdf', data: 'aGVsbG8=' }];
      },
      400,
      'invalid_request',
      '/files/0/data',
    ],
    [
      'file with bad base64',
      (d) => {
        d.files = [{ name: 'a.pdf', data: 'data:application/pdf;base64,a$b=' }];
      },
      400,
      'invalid_request',
      '/files/0/data',
    ],
    [
      'file with bad padding',
      (d) => {
        d.files = [{ name: 'a.pdf', data: 'data:application/pdf;base64,aGVsbG8' }];
      },
      400,
      'invalid_request',
      '/files/0/data',
    ],
    [
      'file without name',
      (d) => {
        d.files = [{ data: 'data:text/plain;base64,aGVsbG8=' }];
      },
      400,
      'invalid_request',
      '/files/0/name',
    ],
    [
      'file over the size limit',
      (d) => {
        d.files = [
          { name: 'big.bin', data: `data:application/octet-stream;base64,${Buffer.alloc(2048).toString('base64')}` },
        ];
      },
      413,
      'payload_too_large',
      '/files/0/data',
    ],
  ];
}

t.test('every write-shape rule → 4xx naming the field, nothing written (both sides)', async (t) => {
  const s = await arapSetup(t, { fileLimit: 1024 });
  for (const vc of SIDES) {
    for (const [name, patch, status, code, field] of cases(vc, s.parties[vc])) {
      const d = structuredClone(s.doc(vc)) as Record<string, any>;
      patch(d);
      const r = await s.api('POST', `/arap/transaction/${vc}`, d);
      t.equal(r.status, status, `${vc}: ${name} → ${status}`);
      t.equal(r.body?.error?.code, code, `${vc}: ${name}: code ${code}`);
      if (typeof field === 'string') t.equal(r.body?.error?.field, field, `${vc}: ${name}: field ${field}`);
      t.type(r.body?.error?.message, 'string');
    }
  }
  const count = await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first());
  t.equal(Number(count?.n), 0, 'no document was written');
  const audit = await s.q((tx) => tx('audit_log').whereLike('entity', '%_transaction').count({ n: '*' }).first());
  t.equal(Number(audit?.n), 0, 'no audit entry either');
});

t.test('accepted edge cases', async (t) => {
  const s = await arapSetup(t);
  const ok = async (name: string, body: Record<string, unknown>, vc: Vc = 'vendor') => {
    const r = await s.api('POST', `/arap/transaction/${vc}`, body);
    t.equal(r.status, 201, `${name}: ${JSON.stringify(r.body)}`);
    return r.body.id as number;
  };
  await ok('vendornumber instead of id', {
    ...s.doc('vendor'),
    vendor_id: undefined,
    vendornumber: s.parties.vendor.number,
  });
  await ok('id and number agreeing', { ...s.doc('vendor'), vendornumber: s.parties.vendor.number });
  await ok('type omitted', { ...s.doc('customer'), type: undefined }, 'customer');
  const kwd = await ok(
    'KWD three decimals',
    s.doc('vendor', { curr: 'KWD', exchangerate: 2.91, lines: [{ account: '6500', amount: 1.234 }] }),
  );
  t.equal((await s.api('GET', `/arap/transaction/vendor/${kwd}`)).body.lines[0].amount, 1.234);
  const eur = await ok('foreign currency, exchangerate omitted (default 1)', s.doc('vendor', { curr: 'EUR' }));
  t.equal((await s.api('GET', `/arap/transaction/vendor/${eur}`)).body.exchangerate, 1);
  await ok('explicit recordAccount', s.doc('customer', { recordAccount: '1100' }), 'customer');
  await ok('exchangerate 1 in base currency', s.doc('vendor', { curr: 'CHF', exchangerate: 1 }));
  await ok(
    'negative amounts (credit note)',
    s.doc('vendor', { pending: '0', lines: [{ account: '6500', amount: -50, taxAccount: '1170' }] }),
  );
  const numeric = await ok('pending as the number 0 posts like "0"', s.doc('vendor', { pending: 0 }));
  t.equal((await s.api('GET', `/arap/transaction/vendor/${numeric}`)).body.status, 'posted');
  const draft = await ok('draft to post with pending 0', s.doc('customer'), 'customer');
  const posted = await s.api('POST', `/arap/transaction/customer/${draft}`, s.doc('customer', { pending: 0 }));
  t.equal(posted.body.status, 'posted', 'update with pending 0 posts');
  await ok('line without tax', s.doc('vendor', { lines: [{ account: '6500', amount: 12.5 }] }));
  await ok('1e-2 is 0.01', s.doc('vendor', { lines: [{ account: '6500', amount: 1e-2 }] }));
});

t.test('malformed bodies', async (t) => {
  const s = await arapSetup(t);
  const notJson = await s.api('POST', '/arap/transaction/vendor', '{"type": ');
  t.equal(notJson.status, 400);
  t.equal(notJson.body.error.code, 'invalid_request');
  const array = await s.api('POST', '/arap/transaction/vendor', '[]');
  t.equal(array.status, 400);
  const unknownSide = await s.api('POST', '/arap/transaction/supplier', s.doc('vendor'));
  t.equal(unknownSide.status, 404);
  const second = await s.api('POST', '/arap/vendor', { name: 'Second Vendor' });
  const disagree = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { vendornumber: second.body.vendornumber }),
  );
  t.equal(disagree.status, 400, 'vendor_id and vendornumber of two different vendors');
  t.equal(disagree.body.error.code, 'invalid_request');
  t.equal(disagree.body.error.field, '/vendornumber');
  const customerAsVendor = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { vendor_id: s.parties.customer.id }),
  );
  t.equal(customerAsVendor.body.error.code, 'vc_not_found', 'a customer id is not a vendor');
});

t.test(
  'document numbers with control characters → 400 naming the field, on every document write; slashes are taken',
  async (t) => {
    const s = await arapSetup(t);
    const bad = ['A\r\nB', 'A\nB', 'A\rB', 'A\tB', '\u0001', 'A\u007fB', 'A\u0085B', 'A\u009bB'];
    const refused = async (what: string, path: string, body: Record<string, unknown>, field: string) => {
      const r = await s.api('POST', path, body);
      t.equal(r.status, 400, `${what} → 400`);
      t.equal(r.body.error.code, 'invalid_request', `${what}: invalid_request`);
      t.equal(r.body.error.field, field, `${what}: names ${field}`);
      t.match(r.body.error.message, /must not contain control characters/, `${what}: says why`);
    };
    const item = (vc: Vc) => ({ description: 'Work', quantity: 1, price: 10, account: CHART[vc].line });
    const draft = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
    for (const value of bad) {
      const shown = JSON.stringify(value);
      for (const vc of SIDES) {
        for (const field of ['invNumber', 'documentNumber']) {
          await refused(
            `${vc} transaction ${field} ${shown}`,
            `/arap/transaction/${vc}`,
            s.doc(vc, { [field]: value }),
            `/${field}`,
          );
          const { lines: _lines, type: _type, ...header } = s.doc(vc);
          await refused(
            `${vc} invoice ${field} ${shown}`,
            `/arap/invoice/${vc}`,
            { ...header, [field]: value, items: [item(vc)] },
            `/${field}`,
          );
        }
      }
      for (const field of ['ordNumber', 'poNumber']) {
        const { lines: _lines, type: _type, ...header } = s.doc('customer');
        await refused(
          `customer invoice ${field} ${shown}`,
          '/arap/invoice/customer',
          { ...header, [field]: value, items: [item('customer')] },
          `/${field}`,
        );
      }
      await refused(
        `update invNumber ${shown}`,
        `/arap/transaction/vendor/${draft.body.id}`,
        s.doc('vendor', { invNumber: value }),
        '/invNumber',
      );
    }
    // a multipart write is held to the same schema
    const form = new FormData();
    form.append('transaction', JSON.stringify(s.doc('vendor', { invNumber: 'A\nB' })));
    const multipart = await fetch(`${s.ledger.url}/client/${s.co.dataset}/arap/transaction/vendor`, {
      method: 'POST',
      headers: { 'X-API-Key': s.co.apiKey },
      body: form,
    });
    t.equal(multipart.status, 400, 'multipart');
    t.equal(((await multipart.json()) as { error: { field: string } }).error.field, '/invNumber');
    const written = await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first());
    t.equal(Number(written?.n), 1, 'nothing but the first draft was written');

    const taken = [
      'RE-2024-0017',
      'Rechnung Nr. 42 – Zürich',
      '#42 (a) & b.c',
      'INV 2024.001',
      '2024/17',
      '..\\..\\x',
      '../etc/passwd',
    ];
    for (const [i, value] of taken.entries()) {
      const ok = await s.api(
        'POST',
        '/arap/transaction/customer',
        s.doc('customer', { invNumber: value, documentNumber: `${value}-${i}` }),
      );
      t.equal(ok.status, 201, `${JSON.stringify(value)} is a number: ${JSON.stringify(ok.body)}`);
    }
  },
);
