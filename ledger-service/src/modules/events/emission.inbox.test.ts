/**
 * Events of the document inbox: document.uploaded commits with the upload, document.extracted
 * with the extraction worker's result; an upload refused (bytes that are not the declared
 * PDF) leaves no event and no gap in the sequence.
 */
import t from 'tap';
import { apiClient, createTestCompany } from '../../../test/helpers.ts';
import { startInboxLedger } from '../../../test/support/inboxLedger.ts';
import { fixture, VECTOR } from '../../../test/fixtures/inbox/fixtures.ts';

t.test('document.uploaded and document.extracted; a refused upload leaves none', async (t) => {
  const ledger = await startInboxLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const upload = async (name: string, data: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'application/pdf' }), name);
    const res = await fetch(`${ledger.url}/client/${co.dataset}/documents/inbox`, {
      method: 'POST',
      headers: { 'X-API-Key': co.apiKey },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { id: number } };
  };
  const events = async (type: string) =>
    (await api('GET', `/events?limit=500&type=${type}`)).body as {
      data: { resource: { id: number | string }; snapshot: Record<string, unknown> };
    }[];

  const refused = await upload('text.pdf', Buffer.from('not a pdf at all'));
  t.equal(refused.status, 415, 'declared PDF, but the bytes are text');
  t.same(await events('document.*'), [], 'the refused upload leaves no event');

  const up = await upload('muster.pdf', fixture(VECTOR.file));
  t.equal(up.status, 201);
  const uploaded = await events('document.uploaded');
  t.equal(uploaded.length, 1, 'one document.uploaded, with the upload');
  t.equal(String(uploaded[0]?.data.resource.id), String(up.body.id));
  t.equal(uploaded[0]?.data.snapshot.name, 'muster.pdf');

  // the worker extracts; a generous bound against hanging, no timing assertion
  let entry: { status: string } = { status: 'new' };
  for (let i = 0; i < 600 && entry.status === 'new'; i++) {
    entry = (await api('GET', `/documents/inbox/${up.body.id}`)).body;
    if (entry.status === 'new') await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(entry.status, 'extracted');
  const extracted = await events('document.extracted');
  t.equal(extracted.length, 1, 'one document.extracted, with the result');
  t.equal(String(extracted[0]?.data.resource.id), String(up.body.id));

  const ids = ((await api('GET', '/events?limit=500')).body as { id: string }[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused upload',
  );
});
