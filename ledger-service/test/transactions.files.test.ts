import t from 'tap';
import { arapSetup } from './arapHelpers.ts';

const pdf = Buffer.from('%PDF-1.4\n% test bill\n');

t.test('files: JSON data URIs and multipart parts; read metadata and download', async (t) => {
  const s = await arapSetup(t, { fileLimit: 4096 });
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const headers = { 'X-API-Key': s.co.apiKey };

  const json = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', {
    files: [{ name: 'bill.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` }, { name: 'note.txt', data: 'data:text/plain;charset=utf-8;base64,aGVsbG8=' }],
  }));
  t.equal(json.status, 201);
  const d = (await s.api('GET', `/arap/transaction/vendor/${json.body.id}`)).body;
  t.same(d.files.map((f: { name: string; mediaType: string; size: number }) => [f.name, f.mediaType, f.size]), [['bill.pdf', 'application/pdf', pdf.length], ['note.txt', 'text/plain', 5]]);
  const download = await fetch(d.files[0].url, { headers });
  t.equal(download.status, 200);
  t.equal(download.headers.get('content-type'), 'application/pdf');
  t.match(download.headers.get('content-disposition'), /attachment; filename="bill.pdf"/);
  t.same(Buffer.from(await download.arrayBuffer()), pdf, 'the exact bytes come back');
  t.equal(d.files[0].url, `${base}/arap/transaction/vendor/${json.body.id}/files/${d.files[0].id}`);

  const form = new FormData();
  form.append('transaction', JSON.stringify(s.doc('vendor', { pending: '0' })));
  form.append('files', new Blob([pdf], { type: 'application/pdf' }), 'scan.pdf');
  form.append('files', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'items.csv');
  const multi = await fetch(`${base}/arap/transaction/vendor`, { method: 'POST', headers, body: form });
  const multiBody = await multi.json();
  t.equal(multi.status, 201, JSON.stringify(multiBody));
  const m = (await s.api('GET', `/arap/transaction/vendor/${multiBody.id}`)).body;
  t.equal(m.status, 'posted');
  t.same(m.files.map((f: { name: string; mediaType: string; size: number }) => [f.name, f.mediaType, f.size]), [['scan.pdf', 'application/pdf', pdf.length], ['items.csv', 'text/csv', 8]]);
  const got = await fetch(m.files[1].url, { headers });
  t.equal(await got.text(), 'a,b\n1,2\n');

  const alt = new FormData();
  alt.append('json', JSON.stringify(s.doc('customer')));
  const altRes = await fetch(`${base}/arap/transaction/customer`, { method: 'POST', headers, body: alt });
  t.equal(altRes.status, 201, 'the JSON part may also be named "json"');

  const update = new FormData();
  update.append('transaction', JSON.stringify(s.doc('vendor')));
  update.append('files', new Blob(['more'], { type: 'text/plain' }), 'more.txt');
  const upd = await fetch(`${base}/arap/transaction/vendor/${json.body.id}`, { method: 'POST', headers, body: update });
  t.equal(upd.status, 200, 'multipart update');
  t.equal((await upd.json()).files.length, 3);

  const otherSide = await fetch(`${base}/arap/transaction/customer/${json.body.id}/files/${d.files[0].id}`, { headers });
  t.equal(otherSide.status, 404, 'file of a vendor document is not found under customer');
  const wrongFile = await fetch(`${base}/arap/transaction/vendor/${multiBody.id}/files/${d.files[0].id}`, { headers });
  t.equal(wrongFile.status, 404, 'file of another document');
});

t.test('multipart errors', async (t) => {
  const s = await arapSetup(t, { fileLimit: 1024 });
  const url = `${s.ledger.url}/client/${s.co.dataset}/arap/transaction/vendor`;
  const headers = { 'X-API-Key': s.co.apiKey };
  const post = async (form: FormData) => {
    const r = await fetch(url, { method: 'POST', headers, body: form });
    return { status: r.status, body: await r.json() };
  };

  const noJson = new FormData();
  noJson.append('files', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
  const r1 = await post(noJson);
  t.equal(r1.status, 400);
  t.match(r1.body.error.message, /"transaction"/);

  const badJson = new FormData();
  badJson.append('transaction', '{nope');
  const r2 = await post(badJson);
  t.equal(r2.status, 400);
  t.equal(r2.body.error.field, '/transaction');

  const unknown = new FormData();
  unknown.append('transaction', JSON.stringify(s.doc('vendor')));
  unknown.append('attachment', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
  const r3 = await post(unknown);
  t.equal(r3.status, 400);
  t.match(r3.body.error.message, /attachment/);

  const invalid = new FormData();
  invalid.append('transaction', JSON.stringify(s.doc('vendor', { curr: 'XXY' })));
  const r4 = await post(invalid);
  t.equal(r4.body.error.code, 'invalid_currency', 'the JSON part gets the same validation');

  const big = new FormData();
  big.append('transaction', JSON.stringify(s.doc('vendor')));
  big.append('files', new Blob([Buffer.alloc(4096)], { type: 'application/octet-stream' }), 'big.bin');
  const r5 = await post(big);
  t.equal(r5.status, 413, JSON.stringify(r5));
  t.equal(r5.body.error.code, 'payload_too_large');

  const count = await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first());
  t.equal(Number(count?.n), 0, 'nothing written');
});
