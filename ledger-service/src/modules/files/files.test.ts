import t from 'tap';
import { createHash } from 'node:crypto';
import { withTenant } from '../../db/knex.ts';
import { arapSetup, CHART } from '../../../test/arapHelpers.ts';
import { startMailScenario } from '../../../test/support/mailLedger.ts';
import { insertMessage, loadOutgoingMessage } from '../outbox/store.ts';
import { byteRange } from './rules.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pdf = Buffer.from(`%PDF-1.4\n% a bill ${'x'.repeat(200)}\n`);
const dataUri = (b: Buffer, type = 'application/pdf') => `data:${type};base64,${b.toString('base64')}`;

t.test('byte ranges (RFC 9110)', async (t) => {
  t.same(byteRange(undefined, 10), { kind: 'whole' });
  t.same(byteRange('bytes=0-3', 10), { kind: 'partial', start: 0, end: 3 });
  t.same(byteRange('bytes=4-', 10), { kind: 'partial', start: 4, end: 9 });
  t.same(byteRange('bytes=-3', 10), { kind: 'partial', start: 7, end: 9 });
  t.same(
    byteRange('bytes=-30', 10),
    { kind: 'partial', start: 0, end: 9 },
    'a suffix longer than the file is the whole file',
  );
  t.same(byteRange('bytes=5-100', 10), { kind: 'partial', start: 5, end: 9 }, 'the end is clipped');
  t.same(byteRange('bytes=10-', 10), { kind: 'unsatisfiable' });
  t.same(byteRange('bytes=-0', 10), { kind: 'unsatisfiable' });
  t.same(byteRange('bytes=0-1,3-4', 10), { kind: 'whole' }, 'several ranges: ignored');
  t.same(byteRange('items=0-1', 10), { kind: 'whole' }, 'other units: ignored');
  t.same(byteRange('bytes=5-2', 10), { kind: 'whole' }, 'an invalid range: ignored');
});

t.test('the same bytes attached twice are one document listed under both; stored once; old URLs work', async (t) => {
  const s = await arapSetup(t);
  const headers = { 'X-API-Key': s.co.apiKey };
  const a = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { files: [{ name: 'bill.pdf', data: dataUri(pdf) }] }),
  );
  const b = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      files: [
        { name: 'copy.pdf', data: dataUri(pdf) },
        { name: 'note.txt', data: dataUri(Buffer.from('hello'), 'text/plain') },
      ],
    }),
  );
  t.equal(a.status, 201);
  t.equal(b.status, 201);
  const [ra, rb] = [
    (await s.api('GET', `/arap/transaction/vendor/${a.body.id}`)).body,
    (await s.api('GET', `/arap/transaction/customer/${b.body.id}`)).body,
  ];

  const list = await s.api('GET', '/documents');
  t.equal(list.status, 200);
  t.equal(list.headers.get('x-total-count'), '2', 'two contents: the PDF once, the note');
  const doc = list.body.find((d: any) => d.media_type === 'application/pdf');
  t.equal(doc.sha256, sha(pdf));
  t.equal(doc.size, pdf.length);
  t.equal(doc.name, 'bill.pdf', 'the first name the bytes came with');
  t.equal(doc.source, 'upload');
  t.same(doc.attached_to, [
    { kind: 'vendor_transaction', id: a.body.id, number: ra.invNumber },
    { kind: 'customer_transaction', id: b.body.id, number: rb.invNumber },
  ]);
  const rows = await withTenant(s.ledger.db, s.co.company.id, async (tx) => ({
    contents: (await tx('document_contents').count({ n: '*' }))[0]!.n,
    inline: (await tx('arap_files').whereNotNull('data').count({ n: '*' }))[0]!.n,
  }));
  t.same(rows, { contents: '2', inline: '0' }, 'bytes stored once per content, none in the attachment rows');

  // the attachment URLs of the documents still answer the bytes
  for (const f of [ra.files[0], rb.files[0]]) {
    const res = await fetch(f.url, { headers });
    t.same(Buffer.from(await res.arrayBuffer()), pdf);
  }

  t.same((await s.api('GET', `/documents/${doc.id}`)).body, doc, 'the single read equals the list row');

  // filters
  const ids = async (q: string) => (await s.api('GET', `/documents${q}`)).body.map((d: any) => d.id).sort();
  const note = list.body.find((d: any) => d.media_type === 'text/plain');
  t.same(await ids(`?kind=vendor_transaction`), [doc.id]);
  t.same(await ids(`?kind=customer_transaction&attached_id=${b.body.id}`), [doc.id, note.id].sort());
  t.same(await ids(`?kind=customer_transaction&attached_id=${a.body.id}`), []);
  t.same(await ids(`?media_type=text/plain`), [note.id]);
  t.same(await ids(`?name=NOTE`), [note.id], 'name: part, case-insensitive');
  t.same(await ids(`?name=%25`), [], 'LIKE wildcards are literal');
  t.same(await ids(`?source=inbox`), []);
  const today = new Date().toISOString().slice(0, 10);
  t.same(await ids(`?from=${today}&to=${today}`), [doc.id, note.id].sort());
  t.same(await ids(`?to=2000-01-01`), []);
  t.same(
    (await s.api('GET', '/documents?sort=name')).body.map((d: any) => d.name),
    ['bill.pdf', 'note.txt'],
  );
  const page = await s.api('GET', '/documents?limit=1&offset=1&sort=name');
  t.same(
    page.body.map((d: any) => d.name),
    ['note.txt'],
  );
  t.equal(page.headers.get('x-total-count'), '2');
  t.equal((await s.api('GET', '/documents?kind=nope')).status, 400);

  // deleting an attachment leaves the document, attached to nothing
  const del = await s.api('DELETE', `/arap/transaction/customer/${b.body.id}/files/${rb.files[1].id}`);
  t.equal(del.status, 204);
  t.same((await s.api('GET', `/documents/${note.id}`)).body.attached_to, []);
  t.same(await ids('?unattached=true'), [note.id]);

  const other = await s.co.addMember('viewer');
  const res = await fetch(`${s.ledger.url}/client/${s.co.dataset}/documents/${doc.id}`, {
    headers: { 'X-API-Key': other.apiKey },
  });
  t.equal(res.status, 200, 'viewers read documents');
  t.equal((await s.api('GET', '/documents/999999999')).status, 404);
});

t.test('content: media type, disposition, ETag and 304, ranges 206/416', async (t) => {
  const s = await arapSetup(t);
  const headers = { 'X-API-Key': s.co.apiKey };
  await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { files: [{ name: 'Rechnung März.pdf', data: dataUri(pdf) }] }),
  );
  const doc = (await s.api('GET', '/documents')).body[0];
  t.equal(doc.url, `${s.ledger.url}/client/${s.co.dataset}/documents/${doc.id}/content`);

  const whole = await fetch(doc.url, { headers });
  t.equal(whole.status, 200);
  t.equal(whole.headers.get('content-type'), 'application/pdf');
  t.match(
    whole.headers.get('content-disposition'),
    /^attachment; filename="Rechnung M_rz\.pdf"; filename\*=UTF-8''Rechnung%20M%C3%A4rz\.pdf$/,
  );
  t.equal(whole.headers.get('etag'), `"${sha(pdf)}"`);
  t.equal(whole.headers.get('accept-ranges'), 'bytes');
  t.same(Buffer.from(await whole.arrayBuffer()), pdf);

  const cached = await fetch(doc.url, { headers: { ...headers, 'If-None-Match': `"${sha(pdf)}"` } });
  t.equal(cached.status, 304);
  t.equal((await cached.arrayBuffer()).byteLength, 0);
  const stale = await fetch(doc.url, { headers: { ...headers, 'If-None-Match': '"other"' } });
  t.equal(stale.status, 200);

  const part = await fetch(doc.url, { headers: { ...headers, Range: 'bytes=0-7' } });
  t.equal(part.status, 206);
  t.equal(part.headers.get('content-range'), `bytes 0-7/${pdf.length}`);
  t.equal(Buffer.from(await part.arrayBuffer()).toString(), '%PDF-1.4');
  const tail = await fetch(doc.url, { headers: { ...headers, Range: 'bytes=-5' } });
  t.equal(tail.status, 206);
  t.same(Buffer.from(await tail.arrayBuffer()), pdf.subarray(pdf.length - 5));
  const outside = await fetch(doc.url, { headers: { ...headers, Range: `bytes=${pdf.length}-` } });
  t.equal(outside.status, 416);
  t.equal(outside.headers.get('content-range'), `bytes */${pdf.length}`);
  t.equal(((await outside.json()) as any).error.code, 'range_not_satisfiable');
  const multi = await fetch(doc.url, { headers: { ...headers, Range: 'bytes=0-1,4-5' } });
  t.equal(multi.status, 200, 'several ranges: the whole file');
  const ifRange = await fetch(doc.url, { headers: { ...headers, Range: 'bytes=0-1', 'If-Range': '"changed"' } });
  t.equal(ifRange.status, 200, 'If-Range with another validator: the whole file');
});

t.test(
  'a journal entry and an AR transaction with the same PDF: one document listed under both, stored once',
  async (t) => {
    const s = await arapSetup(t);
    const headers = { 'X-API-Key': s.co.apiKey };
    const entry = await s.api('POST', '/gl/transactions', {
      transdate: '2024-03-15',
      description: 'receipt',
      pending: '0',
      lines: [
        { account: '6500', debit: 50 },
        { account: '1020', credit: 50 },
      ],
      files: [{ name: 'receipt.pdf', data: dataUri(pdf) }],
    });
    t.equal(entry.status, 201, JSON.stringify(entry.body));
    const ar = await s.api(
      'POST',
      '/arap/transaction/customer',
      s.doc('customer', { files: [{ name: 'same.pdf', data: dataUri(pdf) }] }),
    );
    t.equal(ar.status, 201);
    const [je, rt] = [
      (await s.api('GET', `/gl/transactions/${entry.body.id}`)).body,
      (await s.api('GET', `/arap/transaction/customer/${ar.body.id}`)).body,
    ];

    const docs = (await s.api('GET', '/documents')).body;
    t.equal(docs.length, 1, 'one document for the one content');
    t.match(docs[0], { name: 'receipt.pdf', source: 'upload', sha256: sha(pdf), size: pdf.length });
    t.same(docs[0].attached_to, [
      { kind: 'journal_entry', id: entry.body.id, number: je.reference },
      { kind: 'customer_transaction', id: ar.body.id, number: rt.invNumber },
    ]);
    t.same(
      (await s.api('GET', `/documents?kind=journal_entry&attached_id=${entry.body.id}`)).body.map((d: any) => d.id),
      [docs[0].id],
    );

    const stored = await withTenant(s.ledger.db, s.co.company.id, async (tx) => ({
      rows: (await tx('document_contents').count({ n: '*' }))[0]!.n,
      bytes: (await tx('document_contents').sum({ n: tx.raw('length(data)') }))[0]!.n,
      links: (await tx('gl_files').whereNotNull('document_id').count({ n: '*' }))[0]!.n,
      columns: (
        await tx.raw(
          `select column_name from information_schema.columns where table_name = 'gl_files' and column_name = 'data'`,
        )
      ).rows.length,
    }));
    t.same(
      stored,
      { rows: '1', bytes: String(pdf.length), links: '1', columns: 0 },
      'the bytes once in the store; gl_files has no byte column',
    );

    // the old URL of the journal attachment answers the bytes from the store
    const old = await fetch(je.files[0].url, { headers });
    t.equal(old.status, 200);
    t.equal(old.headers.get('content-type'), 'application/pdf');
    t.same(Buffer.from(await old.arrayBuffer()), pdf);
    t.same(Buffer.from(await (await fetch(rt.files[0].url, { headers })).arrayBuffer()), pdf);
  },
);

t.test('an e-mailed invoice PDF is a document of source email, and the worker sends it from the store', async (t) => {
  const { smtp, ledger, co, api, customerId } = await startMailScenario(t);
  const inv = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customerId,
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    items: [
      {
        description: 'Bookkeeping March',
        quantity: 2,
        unit: 'h',
        price: 150,
        account: CHART.customer.line,
        taxAccount: CHART.customer.tax,
      },
    ],
  });
  t.equal(inv.status, 201, JSON.stringify(inv.body));
  const res = await api('POST', `/arap/invoice/customer/${inv.body.id}/email`, {});
  t.equal(res.status, 202, JSON.stringify(res.body));
  let invNumber: string;
  for (;;) {
    const read = await api('GET', `/arap/invoice/customer/${inv.body.id}`);
    invNumber = read.body.invNumber;
    if ((read.body.emails as { status: string }[]).every((e) => e.status !== 'queued' && e.status !== 'sending')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(smtp.received.length, 1, 'sent');
  const mailed = Buffer.from(smtp.received[0]!.parsed.attachments[0]!.content as ArrayBuffer);
  t.equal(mailed.subarray(0, 5).toString(), '%PDF-');

  const docs = (await api('GET', '/documents?kind=email')).body;
  t.equal(docs.length, 1);
  t.match(docs[0], {
    source: 'email',
    media_type: 'application/pdf',
    sha256: sha(mailed),
    size: mailed.length,
    name: `${invNumber}.pdf`,
  });
  t.same(docs[0].attached_to, [{ kind: 'email', id: res.body.id, number: null }]);
  t.same(
    Buffer.from(await (await fetch(docs[0].url, { headers: { 'X-API-Key': co.apiKey } })).arrayBuffer()),
    mailed,
    'the document is the bytes sent',
  );

  const stored = await withTenant(ledger.db, co.company.id, async (tx) => ({
    contents: (await tx('document_contents').count({ n: '*' }))[0]!.n,
    links: (await tx('message_attachments').whereNotNull('document_id').count({ n: '*' }))[0]!.n,
    columns: (
      await tx.raw(
        `select column_name from information_schema.columns where table_name = 'message_attachments' and ` +
          `column_name = 'data'`,
      )
    ).rows.length,
  }));
  t.same(
    stored,
    { contents: '1', links: '1', columns: 0 },
    'the bytes once, in the store; no byte column in the outbox',
  );
});

t.test('the outbox stores the same attachment once: one document, two links, both read back for sending', async (t) => {
  const s = await arapSetup(t);
  const attachment = Buffer.from('%PDF-1.4\n% the same file on two e-mails\n');
  const message = (to: string) => ({
    transactionId: null,
    kind: 'other' as const,
    from: 'books@example.test',
    to: [to],
    cc: [],
    subject: 'Files',
    text: 'see attached',
    messageId: `<${to}>`,
    attachments: [{ filename: 'terms.pdf', mediaType: 'application/pdf', data: attachment }],
  });
  const { one, two, loaded, contents } = await withTenant(s.ledger.db, s.co.company.id, async (tx) => {
    const one = await insertMessage(tx, s.co.company.id, message('a@b.test'));
    const two = await insertMessage(tx, s.co.company.id, message('c@d.test'));
    const loaded = [
      await loadOutgoingMessage(tx, s.co.company.id, one),
      await loadOutgoingMessage(tx, s.co.company.id, two),
    ];
    return { one, two, loaded, contents: Number((await tx('document_contents').count({ n: '*' }))[0]!.n) };
  });
  t.equal(contents, 1, 'the bytes stored once');
  for (const m of loaded)
    t.same(
      m!.attachments,
      [{ filename: 'terms.pdf', mediaType: 'application/pdf', data: attachment }],
      'what the worker sends',
    );
  const docs = (await s.api('GET', '/documents')).body;
  t.equal(docs.length, 1);
  t.match(docs[0], { source: 'email', name: 'terms.pdf', sha256: sha(attachment) });
  t.same(docs[0].attached_to, [
    { kind: 'email', id: one, number: null },
    { kind: 'email', id: two, number: null },
  ]);
});

t.test(
  "files sent back never run on the service's origin: nosniff and a sandboxing CSP on every file URL",
  async (t) => {
    const s = await arapSetup(t);
    const headers = { 'X-API-Key': s.co.apiKey };
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/client/x/system/api_keys")</script></svg>',
    );
    const html = Buffer.from('<!doctype html><script>document.cookie</script>');
    const created = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', {
        files: [
          { name: 'logo.svg', data: dataUri(svg, 'image/svg+xml') },
          { name: 'page.html', data: dataUri(html, 'text/html') },
        ],
      }),
    );
    t.equal(created.status, 201, JSON.stringify(created.body));
    const documents = (await s.api('GET', '/documents')).body as { url: string; name: string }[];
    const urls = [
      ...documents.map((d) => d.url),
      ...((await s.api('GET', `/arap/transaction/vendor/${created.body.id}`)).body.files as { url: string }[]).map(
        (f) => f.url,
      ),
    ];
    t.equal(urls.length, 4, 'two documents, two attachment URLs');
    for (const url of urls) {
      const res = await fetch(url, { headers });
      t.equal(res.status, 200, url);
      t.equal(res.headers.get('x-content-type-options'), 'nosniff', `${url}: nosniff`);
      t.match(res.headers.get('content-security-policy'), /^sandbox; default-src 'none'/, `${url}: sandboxed`);
      t.match(res.headers.get('content-disposition'), /^attachment/, `${url}: a download`);
    }
    const missing = await fetch(`${documents[0]!.url.replace(/\/\d+\/content$/, '/999999/content')}`, { headers });
    t.equal(missing.status, 404);
    t.equal(missing.headers.get('x-content-type-options'), 'nosniff', 'a refusal of a file URL carries it too');
  },
);
