import t from 'tap';
import { createHash } from 'node:crypto';
import { withTenant } from '../../db/knex.ts';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { byteRange } from './rules.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pdf = Buffer.from(`%PDF-1.4\n% a bill ${'x'.repeat(200)}\n`);
const dataUri = (b: Buffer, type = 'application/pdf') => `data:${type};base64,${b.toString('base64')}`;

t.test('byte ranges (RFC 9110)', async (t) => {
  t.same(byteRange(undefined, 10), { kind: 'whole' });
  t.same(byteRange('bytes=0-3', 10), { kind: 'partial', start: 0, end: 3 });
  t.same(byteRange('bytes=4-', 10), { kind: 'partial', start: 4, end: 9 });
  t.same(byteRange('bytes=-3', 10), { kind: 'partial', start: 7, end: 9 });
  t.same(byteRange('bytes=-30', 10), { kind: 'partial', start: 0, end: 9 }, 'a suffix longer than the file is the whole file');
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
  const a = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { files: [{ name: 'bill.pdf', data: dataUri(pdf) }] }));
  const b = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { files: [{ name: 'copy.pdf', data: dataUri(pdf) }, { name: 'note.txt', data: dataUri(Buffer.from('hello'), 'text/plain') }] }));
  t.equal(a.status, 201);
  t.equal(b.status, 201);
  const [ra, rb] = [(await s.api('GET', `/arap/transaction/vendor/${a.body.id}`)).body, (await s.api('GET', `/arap/transaction/customer/${b.body.id}`)).body];

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
  t.same((await s.api('GET', '/documents?sort=name')).body.map((d: any) => d.name), ['bill.pdf', 'note.txt']);
  const page = await s.api('GET', '/documents?limit=1&offset=1&sort=name');
  t.same(page.body.map((d: any) => d.name), ['note.txt']);
  t.equal(page.headers.get('x-total-count'), '2');
  t.equal((await s.api('GET', '/documents?kind=nope')).status, 400);

  // deleting an attachment leaves the document, attached to nothing
  const del = await s.api('DELETE', `/arap/transaction/customer/${b.body.id}/files/${rb.files[1].id}`);
  t.equal(del.status, 204);
  t.same((await s.api('GET', `/documents/${note.id}`)).body.attached_to, []);
  t.same(await ids('?unattached=true'), [note.id]);

  const other = await s.co.addMember('viewer');
  const res = await fetch(`${s.ledger.url}/client/${s.co.dataset}/documents/${doc.id}`, { headers: { 'X-API-Key': other.apiKey } });
  t.equal(res.status, 200, 'viewers read documents');
  t.equal((await s.api('GET', '/documents/999999999')).status, 404);
});

t.test('content: media type, disposition, ETag and 304, ranges 206/416', async (t) => {
  const s = await arapSetup(t);
  const headers = { 'X-API-Key': s.co.apiKey };
  await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { files: [{ name: 'Rechnung März.pdf', data: dataUri(pdf) }] }));
  const doc = (await s.api('GET', '/documents')).body[0];
  t.equal(doc.url, `${s.ledger.url}/client/${s.co.dataset}/documents/${doc.id}/content`);

  const whole = await fetch(doc.url, { headers });
  t.equal(whole.status, 200);
  t.equal(whole.headers.get('content-type'), 'application/pdf');
  t.match(whole.headers.get('content-disposition'), /^attachment; filename="Rechnung M_rz\.pdf"; filename\*=UTF-8''Rechnung%20M%C3%A4rz\.pdf$/);
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

t.test('files of e-mails are documents (registered by the trigger, source email)', async (t) => {
  const s = await arapSetup(t);
  const attachment = Buffer.from('%PDF-1.4\n% invoice sent by e-mail\n');
  const messageId = await withTenant(s.ledger.db, s.co.company.id, async (tx) => {
    const [m] = (await tx('messages')
      .insert({ company_id: s.co.company.id, kind: 'other', to_addresses: ['a@b.test'], subject: 'Invoice', body: 'see attached', message_id: '<m@test>' })
      .returning('id')) as { id: number }[];
    await tx('message_attachments').insert({ company_id: s.co.company.id, message_id: m!.id, position: 0, filename: 'invoice.pdf', media_type: 'application/pdf', data: attachment });
    return m!.id;
  });
  const docs = (await s.api('GET', '/documents?kind=email')).body;
  t.equal(docs.length, 1);
  t.equal(docs[0].source, 'email');
  t.equal(docs[0].name, 'invoice.pdf');
  t.equal(docs[0].sha256, sha(attachment));
  t.same(docs[0].attached_to, [{ kind: 'email', id: messageId, number: null }]);
  const content = await fetch(docs[0].url, { headers: { 'X-API-Key': s.co.apiKey } });
  t.same(Buffer.from(await content.arrayBuffer()), attachment);
});
