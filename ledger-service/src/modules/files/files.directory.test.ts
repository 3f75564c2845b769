import t from 'tap';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { withTenant } from '../../db/knex.ts';
import { arapSetup } from '../../../test/arapHelpers.ts';

// the store is chosen at start from the environment (one per process: this test file's own)
const dir = mkdtempSync(join(tmpdir(), 'ledger-documents-'));
process.env.DOCUMENT_STORE = 'directory';
process.env.DOCUMENT_DIR = dir;

t.test('DOCUMENT_STORE=directory: bytes in files named by company and hash, none in Postgres; read back', async (t) => {
  const s = await arapSetup(t);
  const pdf = Buffer.from('%PDF-1.4\n% stored in a directory\n');
  const sha = createHash('sha256').update(pdf).digest('hex');
  const created = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { files: [{ name: 'bill.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` }] }));
  t.equal(created.status, 201);
  const file = join(dir, String(s.co.company.id), sha.slice(0, 2), sha);
  t.ok(existsSync(file), 'the file is where the hash says');
  t.same(readFileSync(file), pdf);
  const rows = await withTenant(s.ledger.db, s.co.company.id, async (tx) => ({
    storage: (await tx('documents').first('storage'))!.storage,
    contents: (await tx('document_contents').count({ n: '*' }))[0]!.n,
  }));
  t.same(rows, { storage: 'directory', contents: '0' });
  const doc = (await s.api('GET', '/documents')).body[0];
  const content = await fetch(doc.url, { headers: { 'X-API-Key': s.co.apiKey } });
  t.same(Buffer.from(await content.arrayBuffer()), pdf);
  const read = (await s.api('GET', `/arap/transaction/vendor/${created.body.id}`)).body;
  const old = await fetch(read.files[0].url, { headers: { 'X-API-Key': s.co.apiKey } });
  t.same(Buffer.from(await old.arrayBuffer()), pdf, 'the attachment URL reads from the directory too');
});
