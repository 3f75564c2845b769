/**
 * multipart/form-data is read by the kernel as each contract declares it (kernel/multipart.ts):
 * endpoints that declare none refuse it, and the OpenAPI document names the JSON part and the
 * other names it is still accepted under.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { arapSetup, CHART } from '../../test/arapHelpers.ts';

t.test('multipart where a contract declares none: 415, nothing written', async (t) => {
  const s = await arapSetup(t);
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const headers = { 'X-API-Key': s.co.apiKey };
  const parties = async () => Number((await s.q((tx) => tx('parties').count({ n: '*' }).first()))?.n ?? 0);
  const before = await parties();

  // a form of strings would otherwise pass as the JSON object {"name": "Acme"}
  const form = new FormData();
  form.append('name', 'Acme by form');
  const vendor = await fetch(`${base}/arap/vendor`, { method: 'POST', headers, body: form });
  const vendorBody = await vendor.json();
  t.equal(vendor.status, 415, JSON.stringify(vendorBody));
  t.equal(vendorBody.error.code, 'unsupported_media_type');
  t.match(vendorBody.error.message, /application\/json/);
  t.equal(await parties(), before, 'no vendor from a form');

  const batch = new FormData();
  batch.append('transactions', JSON.stringify([s.doc('vendor')]));
  batch.append('files', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'a.pdf');
  const journalBatch = await fetch(`${base}/gl/transactions/batch`, { method: 'POST', headers, body: batch });
  t.equal(journalBatch.status, 415, 'a batch takes JSON only');

  const reverse = new FormData();
  reverse.append('date', '2024-03-20');
  const res = await fetch(`${base}/gl/transactions/1/reverse`, { method: 'POST', headers, body: reverse });
  t.equal(res.status, 415, 'an optional body is JSON too');

  // an endpoint that takes a file as the body says which types it takes
  const statement = new FormData();
  statement.append('file', new Blob(['a;b\n'], { type: 'text/csv' }), 'statement.csv');
  const imported = await fetch(`${base}/bank/transactions/import`, { method: 'POST', headers, body: statement });
  const importedBody = await imported.json();
  t.equal(imported.status, 415);
  t.match(importedBody.error.message, /Send the file as .*text\/csv/);

  // the same requests as JSON are read as before
  t.equal((await s.api('POST', '/arap/vendor', { name: 'Acme by JSON' })).status, 201);
});

t.test('OpenAPI: the multipart body names its JSON part and says the other names it is read under', async (t) => {
  const s = await arapSetup(t);
  const doc = await (await fetch(`${s.ledger.url}/openapi.json`)).json();
  const formOf = (path: string, method: string) =>
    doc.paths[path][method].requestBody.content['multipart/form-data'].schema as {
      required: string[];
      properties: Record<string, { description: string }>;
    };
  const journal = formOf('/gl/transactions', 'post');
  t.same(journal.required, ['entry']);
  t.same(Object.keys(journal.properties), ['entry', 'files']);
  t.match(journal.properties.entry!.description, /"transaction" or "json"; one JSON part only/);
  const update = formOf('/gl/transactions/{id}', 'post');
  t.same(update.required, ['entry']);
  const arap = formOf('/arap/transaction/vendor', 'post');
  t.same(arap.required, ['transaction']);
  t.match(arap.properties.transaction!.description, /"json"; one JSON part only/);
  t.ok(formOf('/arap/invoice/customer', 'post'), 'invoices say the multipart body they take');
  t.notOk(
    doc.paths['/gl/transactions/batch'].post.requestBody.content['multipart/form-data'],
    'no multipart where none is read',
  );
});

t.test('invoices take multipart as AR/AP transactions do: "transaction" or "json", files in "files"', async (t) => {
  const s = await arapSetup(t);
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const headers = { 'X-API-Key': s.co.apiKey };
  const invoice = {
    vendor_id: s.parties.vendor.id,
    invDate: '2024-03-15',
    items: [{ description: 'Consulting', quantity: 2, price: 100, account: CHART.vendor.line }],
  };
  for (const part of ['transaction', 'json']) {
    const form = new FormData();
    form.append(part, JSON.stringify(invoice));
    form.append('files', new Blob(['%PDF-1.4\n'], { type: 'application/pdf' }), `${part}.pdf`);
    const res = await fetch(`${base}/arap/invoice/vendor`, { method: 'POST', headers, body: form });
    const body = await res.json();
    t.equal(res.status, 201, `part "${part}": ${JSON.stringify(body)}`);
    const read = (await s.api('GET', `/arap/invoice/vendor/${body.id}`)).body;
    t.same(
      read.files.map((f: { name: string; mediaType: string }) => [f.name, f.mediaType]),
      [[`${part}.pdf`, 'application/pdf']],
    );
  }
  const both = new FormData();
  both.append('transaction', JSON.stringify(invoice));
  both.append('json', JSON.stringify(invoice));
  const twice = await fetch(`${base}/arap/invoice/vendor`, { method: 'POST', headers, body: both });
  t.equal(twice.status, 400, 'one JSON part per request');
  const count = await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first());
  t.equal(Number(count?.n), 2, 'the two accepted invoices only');
});

/** The files in the temporary directory (where formidable writes uploads) holding exactly `content`. */
async function tempFilesWith(content: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(tmpdir())) {
    const path = join(tmpdir(), name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || info.size !== Buffer.byteLength(content)) continue;
    if ((await readFile(path, 'utf8').catch(() => '')) === content) found.push(path);
  }
  return found;
}

t.test('the temporary files of an upload are gone when the request ends, answered or refused', async (t) => {
  const s = await arapSetup(t);
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  // content no other test writes, so other requests running beside this one do not matter
  const marker = `upload ${randomUUID()}`;
  const send = async (path: string, parts: [string, string | Blob, string?][], apiKey = s.co.apiKey) => {
    const form = new FormData();
    for (const [name, value, filename] of parts) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, filename);
    }
    return (await fetch(`${base}${path}`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: form })).status;
  };
  const file = () => new Blob([marker], { type: 'text/plain' });
  const doc = JSON.stringify(s.doc('vendor'));
  const viewer = await s.co.addMember('viewer');
  t.equal(
    await send('/arap/transaction/vendor', [
      ['transaction', doc],
      ['files', file(), 'a.txt'],
    ]),
    201,
    'stored',
  );
  t.equal(await send('/arap/vendor', [['files', file(), 'a.txt']]), 415, 'no multipart declared');
  t.equal(await send('/arap/transaction/vendor', [['attachment', file(), 'a.txt']]), 400, 'unknown part');
  t.equal(
    await send('/arap/transaction/vendor', [
      ['transaction', '{nope'],
      ['files', file(), 'a.txt'],
    ]),
    400,
    'JSON part not JSON',
  );
  t.equal(
    await send(
      '/arap/transaction/vendor',
      [
        ['transaction', doc],
        ['files', file(), 'a.txt'],
      ],
      viewer.apiKey,
    ),
    403,
    'refused before the body is read',
  );
  t.equal(
    await send('/gl/transactions', [
      ['entry', '{}'],
      ['files', file(), 'a.txt'],
    ]),
    400,
    'schema refusal',
  );
  t.same(await tempFilesWith(marker), [], 'no temporary file left');
});
