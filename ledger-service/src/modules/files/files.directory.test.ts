import t from 'tap';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { withTenant } from '../../db/knex.ts';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { insertMessage, loadOutgoingMessage } from '../outbox/store.ts';

// the store is chosen at start from the environment (one per process: this test file's own)
const dir = mkdtempSync(join(tmpdir(), 'ledger-documents-'));
process.env.DOCUMENT_STORE = 'directory';
process.env.DOCUMENT_DIR = dir;

t.test('DOCUMENT_STORE=directory: bytes in files named by company and hash, none in Postgres; read back', async (t) => {
  const s = await arapSetup(t);
  const pdf = Buffer.from('%PDF-1.4\n% stored in a directory\n');
  const sha = createHash('sha256').update(pdf).digest('hex');
  const created = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { files: [{ name: 'bill.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` }] }),
  );
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

t.test(
  'DOCUMENT_STORE=directory: journal and e-mail attachments go there too, read back by their old readers',
  async (t) => {
    const s = await arapSetup(t);
    const pdf = Buffer.from('%PDF-1.4\n% a journal receipt, also e-mailed\n');
    const sha = createHash('sha256').update(pdf).digest('hex');
    const entry = await s.api('POST', '/gl/transactions', {
      transdate: '2024-03-15',
      description: 'receipt',
      lines: [
        { account: '6500', debit: 20 },
        { account: '1020', credit: 20 },
      ],
      files: [{ name: 'receipt.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` }],
    });
    t.equal(entry.status, 201, JSON.stringify(entry.body));
    t.same(
      readFileSync(join(dir, String(s.co.company.id), sha.slice(0, 2), sha)),
      pdf,
      'the journal file is in the directory',
    );
    const read = (await s.api('GET', `/gl/transactions/${entry.body.id}`)).body;
    const old = await fetch(read.files[0].url, { headers: { 'X-API-Key': s.co.apiKey } });
    t.same(Buffer.from(await old.arrayBuffer()), pdf, 'the journal attachment URL reads from the directory');

    const loaded = await withTenant(s.ledger.db, s.co.company.id, async (tx) => {
      const id = await insertMessage(tx, s.co.company.id, {
        transactionId: null,
        kind: 'other',
        from: 'books@example.test',
        to: ['a@b.test'],
        cc: [],
        subject: 'Receipt',
        text: 'attached',
        messageId: '<dir@test>',
        attachments: [{ filename: 'receipt.pdf', mediaType: 'application/pdf', data: pdf }],
      });
      return {
        message: await loadOutgoingMessage(tx, s.co.company.id, id),
        contents: Number((await tx('document_contents').count({ n: '*' }))[0]!.n),
      };
    });
    t.same(
      loaded.message!.attachments,
      [{ filename: 'receipt.pdf', mediaType: 'application/pdf', data: pdf }],
      'the mail worker reads the e-mail file from the directory',
    );
    t.equal(loaded.contents, 0, 'nothing in Postgres');
    const doc = (await s.api('GET', '/documents')).body;
    t.equal(doc.length, 1, 'one document for the journal file and the e-mail file');
    t.same(
      doc[0].attached_to.map((a: { kind: string }) => a.kind),
      ['journal_entry', 'email'],
    );
  },
);
