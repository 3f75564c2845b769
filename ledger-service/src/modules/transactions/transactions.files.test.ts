import t from 'tap';
import { arapSetup, memberApi } from '../../../test/arapHelpers.ts';

const pdf = Buffer.from('%PDF-1.4\n% test bill\n');

t.test('files: JSON data URIs and multipart parts; read metadata and download', async (t) => {
  const s = await arapSetup(t, { fileLimit: 4096 });
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const headers = { 'X-API-Key': s.co.apiKey };

  const json = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      files: [
        { name: 'bill.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` },
        { name: 'note.txt', data: 'data:text/plain;charset=utf-8;base64,aGVsbG8=' },
      ],
    }),
  );
  t.equal(json.status, 201);
  const d = (await s.api('GET', `/arap/transaction/vendor/${json.body.id}`)).body;
  t.same(
    d.files.map((f: { name: string; mediaType: string; size: number }) => [f.name, f.mediaType, f.size]),
    [
      ['bill.pdf', 'application/pdf', pdf.length],
      ['note.txt', 'text/plain', 5],
    ],
  );
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
  t.same(
    m.files.map((f: { name: string; mediaType: string; size: number }) => [f.name, f.mediaType, f.size]),
    [
      ['scan.pdf', 'application/pdf', pdf.length],
      ['items.csv', 'text/csv', 8],
    ],
  );
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

  const otherSide = await fetch(`${base}/arap/transaction/customer/${json.body.id}/files/${d.files[0].id}`, {
    headers,
  });
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

  // one JSON part per request: "transaction" and "json" together are two documents, not a choice
  const both = new FormData();
  both.append('transaction', JSON.stringify(s.doc('vendor')));
  both.append('json', JSON.stringify(s.doc('vendor')));
  const r6 = await post(both);
  t.equal(r6.status, 400, JSON.stringify(r6));
  t.match(r6.body.error.message, /one part, named "transaction" \(or "json"\); got 2/);
  // the journal's part name is not one of AR/AP's
  const entry = new FormData();
  entry.append('entry', JSON.stringify(s.doc('vendor')));
  const r7 = await post(entry);
  t.equal(r7.status, 400);
  t.match(r7.body.error.message, /Unknown multipart part "entry": send the JSON as "transaction"/);
  const noFile = new FormData();
  noFile.append('transaction', JSON.stringify(s.doc('vendor')));
  noFile.append('files', 'not a file');
  const r8 = await post(noFile);
  t.equal(r8.status, 400, 'a files part without a file is refused, not dropped');
  t.equal(r8.body.error.field, '/files');

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

/** The write shape of a document as read: what a client sends back after a GET (files re-encoded as data URIs). */
async function roundTrip(s: Awaited<ReturnType<typeof arapSetup>>, id: number, extra: Record<string, unknown> = {}) {
  const d = (await s.api('GET', `/arap/transaction/vendor/${id}`)).body;
  const files = [];
  for (const f of d.files as { name: string; mediaType: string; url: string }[]) {
    const bytes = Buffer.from(await (await fetch(f.url, { headers: { 'X-API-Key': s.co.apiKey } })).arrayBuffer());
    files.push({ name: f.name, data: `data:${f.mediaType};base64,${bytes.toString('base64')}` });
  }
  return {
    type: 'transaction',
    vendor_id: d.vendor_id,
    invNumber: d.invNumber,
    documentNumber: d.documentNumber,
    invDate: d.invDate,
    lines: d.lines.map((l: { account: string; amount: number; taxAccount?: string }) => ({
      account: l.account,
      amount: l.amount,
      taxAccount: l.taxAccount,
    })),
    files,
    ...extra,
  };
}

t.test('files: a GET → POST round trip keeps the attachments; only new content is added', async (t) => {
  const s = await arapSetup(t);
  const created = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      files: [
        { name: 'bill.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` },
        { name: 'note.txt', data: 'data:text/plain;base64,aGVsbG8=' },
      ],
    }),
  );
  t.equal(created.status, 201);
  const id = created.body.id as number;
  const updated = await s.api('POST', `/arap/transaction/vendor/${id}`, await roundTrip(s, id));
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.equal(updated.body.files.length, 2, 'update with the same files: still two');
  const approved = await s.api('POST', `/arap/transaction/vendor/${id}/approve`, await roundTrip(s, id));
  t.equal(approved.status, 200, JSON.stringify(approved.body));
  t.same(
    approved.body.files.map((f: { name: string }) => f.name),
    ['bill.pdf', 'note.txt'],
    'approve with the same files: still two',
  );

  const again = await roundTrip(s, id);
  again.files.push(
    { name: 'note.txt', data: 'data:text/plain;base64,Y2hhbmdlZA==' }, // same name, other content: a new file
    // same content, other name: a new file
    { name: 'copy.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` },
    { name: 'extra.txt', data: 'data:text/plain;base64,eA==' },
    { name: 'extra.txt', data: 'data:text/plain;base64,eA==' }, // twice in one request: once
  );
  const grown = await s.api('POST', `/arap/transaction/vendor/${id}`, again);
  t.equal(grown.status, 200, JSON.stringify(grown.body));
  t.same(
    grown.body.files.map((f: { name: string }) => f.name),
    ['bill.pdf', 'note.txt', 'note.txt', 'copy.pdf', 'extra.txt'],
  );

  const multipart = new FormData();
  multipart.append('transaction', JSON.stringify({ ...(await roundTrip(s, id)), files: undefined }));
  multipart.append('files', new Blob([pdf], { type: 'application/pdf' }), 'bill.pdf');
  const viaForm = await fetch(`${s.ledger.url}/client/${s.co.dataset}/arap/transaction/vendor/${id}`, {
    method: 'POST',
    headers: { 'X-API-Key': s.co.apiKey },
    body: multipart,
  });
  t.equal((await viaForm.json()).files.length, 5, 'a multipart part equal to an attachment is not added either');
});

t.test('files: DELETE …/files/{fileId} on drafts and unpaid posted documents, audited', async (t) => {
  const s = await arapSetup(t);
  const file = (name: string) => ({ name, data: `data:text/plain;base64,${Buffer.from(name).toString('base64')}` });
  const draft = (
    await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { files: [file('a.txt'), file('b.txt')] }))
  ).body.id as number;
  const posted = (
    await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0', files: [file('c.txt')] }))
  ).body.id as number;
  const other = (await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { files: [file('d.txt')] }))).body
    .id as number;
  const filesOf = async (id: number) =>
    (await s.api('GET', `/arap/transaction/vendor/${id}`)).body.files as { id: number; name: string }[];
  const [a, b] = await filesOf(draft);
  const [c] = await filesOf(posted);
  const [d] = await filesOf(other);

  const del = await s.api('DELETE', `/arap/transaction/vendor/${draft}/files/${a!.id}`);
  t.equal(del.status, 204, 'draft: 204');
  t.same(
    (await filesOf(draft)).map((f) => f.name),
    ['b.txt'],
  );
  t.equal((await s.api('GET', `/arap/transaction/vendor/${draft}/files/${a!.id}`)).status, 404, 'gone');
  t.equal((await s.api('DELETE', `/arap/transaction/vendor/${draft}/files/${a!.id}`)).status, 404, 'twice: 404');
  t.equal(
    (await s.api('DELETE', `/arap/transaction/vendor/${draft}/files/${d!.id}`)).status,
    404,
    "another document's file: 404",
  );
  t.equal(
    (await s.api('DELETE', `/arap/transaction/customer/${other}/files/${d!.id}`)).status,
    404,
    'the other side: 404',
  );
  t.equal((await filesOf(other)).length, 1, 'untouched');

  const clerk = await memberApi(s, s.co, 'clerk');
  t.equal(
    (await clerk('DELETE', `/arap/transaction/vendor/${posted}/files/${c!.id}`)).status,
    403,
    'a posted document needs the approve permission, as for updating it',
  );
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('DELETE', `/arap/transaction/vendor/${draft}/files/${b!.id}`)).status, 403, 'viewers: 403');
  t.equal(
    (await s.api('DELETE', `/arap/transaction/vendor/${posted}/files/${c!.id}`)).status,
    204,
    'posted and unpaid: 204',
  );

  const reversedDoc = (
    await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0', files: [file('e.txt')] }))
  ).body.id as number;
  const [e] = await filesOf(reversedDoc);
  const reversal = await s.api('POST', `/arap/transaction/vendor/${reversedDoc}/reverse`, { date: '2024-03-20' });
  t.equal(reversal.status, 201);
  const refused = await s.api('DELETE', `/arap/transaction/vendor/${reversedDoc}/files/${e!.id}`);
  t.equal(refused.status, 409, 'reversed: 409');
  t.equal(refused.body.error.code, 'conflict');
  t.equal((await filesOf(reversedDoc)).length, 1, 'kept');

  const audit = await s.audit(draft);
  t.match(
    audit.at(-1),
    { action: 'delete_file', details: { file_id: a!.id, name: 'a.txt', size: 5 } },
    'audited on the document',
  );
  t.match((await s.audit(posted)).at(-1), { action: 'delete_file', details: { file_id: c!.id } });
});

t.test('multipart files keep the order they were sent in, a large first file before a small second', async (t) => {
  const s = await arapSetup(t, { fileLimit: 4 * 1024 * 1024 });
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const headers = { 'X-API-Key': s.co.apiKey };
  // the first file takes longer to write to disk than the second: formidable finishes them in the other order
  const large = Buffer.concat([pdf, Buffer.alloc(3 * 1024 * 1024, 0x20)]);
  for (let round = 0; round < 3; round++) {
    const form = new FormData();
    form.append('transaction', JSON.stringify(s.doc('vendor')));
    form.append('files', new Blob([large], { type: 'application/pdf' }), 'large.pdf');
    form.append('files', new Blob(['x'], { type: 'text/plain' }), 'small.txt');
    form.append('files', new Blob(['y'], { type: 'text/plain' }), 'smaller.txt');
    const res = await fetch(`${base}/arap/transaction/vendor`, { method: 'POST', headers, body: form });
    const created = (await res.json()) as { id: number };
    t.equal(res.status, 201);
    const doc = (await s.api('GET', `/arap/transaction/vendor/${created.id}`)).body;
    t.same(
      doc.files.map((f: { name: string }) => f.name),
      ['large.pdf', 'small.txt', 'smaller.txt'],
      `round ${round}: in the order sent`,
    );
  }
});
