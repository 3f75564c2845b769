/**
 * journal_entry.posted carries what docs/events.md lists — reference, transdate, currency, the
 * number of lines and the debit total as a decimal string (events carry amounts as strings,
 * never floats) — however the entry is posted: alone, in a batch, or a draft posted by update.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('journal_entry.posted: its snapshot, posted alone, in a batch or by update', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  // a draft leaves `pending` out
  const entry = (transdate: string, amount: number, draft = false) => ({
    transdate,
    ...(draft ? {} : { pending: '0' }),
    lines: [
      { account: '1020', debit: amount },
      { account: '2800', credit: amount / 2 },
      { account: '2800', credit: amount / 2 },
    ],
  });

  const alone = await api('POST', '/gl/transactions', entry('2025-03-01', 500.5));
  t.equal(alone.status, 201);
  const batch = await api('POST', '/gl/transactions/batch', {
    transactions: [entry('2025-03-02', 0.1), entry('2025-03-03', 1234.56)],
  });
  t.equal(batch.status, 200, JSON.stringify(batch.body));
  const draft = await api('POST', '/gl/transactions', entry('2025-03-04', 20, true));
  t.equal(draft.status, 201, JSON.stringify(draft.body));
  const posted = await api('POST', `/gl/transactions/${draft.body.id}`, entry('2025-03-05', 30));
  t.equal(posted.status, 200, JSON.stringify(posted.body));

  const events = (await api('GET', '/events?type=journal_entry.posted')).body as {
    data: { resource: { id: number }; snapshot: Record<string, unknown> };
  }[];
  const references = async (id: number) => (await api('GET', `/gl/transactions/${id}`)).body.reference as string;
  const expected = async (id: number, transdate: string, debit: string) => [
    id,
    { reference: await references(id), transdate, currency: 'CHF', lines: 3, debit },
  ];
  const batchIds = batch.body.ids as number[];
  t.same(
    events.map((e) => [e.data.resource.id, e.data.snapshot]),
    [
      await expected(alone.body.id, '2025-03-01', '500.5'),
      await expected(batchIds[0]!, '2025-03-02', '0.1'),
      await expected(batchIds[1]!, '2025-03-03', '1234.56'),
      await expected(draft.body.id, '2025-03-05', '30'),
    ],
    'one event per posted entry (the draft when posted), each with its date and the debit total as a string',
  );
});
