/**
 * Events of the journal, fiscal years and API keys commit with their change, and a refused
 * change (an unbalanced entry, reversing twice, deleting a missing key) leaves no event.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('journal, fiscal year and API key events; refused changes leave none', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const types = async () => ((await api('GET', '/events?limit=500')).body as { type: string }[]).map((e) => e.type);

  const entry = {
    transdate: '2025-06-30',
    pending: '0',
    lines: [
      { account: '1020', debit: 500 },
      { account: '2800', credit: 500 },
    ],
  };
  const posted = await api('POST', '/gl/transactions', entry);
  t.equal(posted.status, 201);
  const unbalanced = await api('POST', '/gl/transactions', {
    ...entry,
    lines: [
      { account: '1020', debit: 500 },
      { account: '2800', credit: 400 },
    ],
  });
  t.equal(unbalanced.status, 400);
  t.same(await types(), ['journal_entry.posted'], 'one event: the posted entry');

  t.equal((await api('POST', `/gl/transactions/${posted.body.id}/reverse`, { date: '2025-07-01' })).status, 201);
  t.equal((await api('POST', `/gl/transactions/${posted.body.id}/reverse`, { date: '2025-07-01' })).status, 409);
  const reversed = (await api('GET', '/events?type=journal_entry.reversed')).body;
  t.equal(reversed.length, 1, 'reversed once, one event');
  t.equal(reversed[0].data.resource.id, posted.body.id);

  t.equal((await api('POST', '/system/fiscal_years/2025/close')).status, 200);
  t.equal((await api('POST', '/system/fiscal_years/2025/close')).status, 409);
  const closed = (await api('GET', '/events?type=fiscal_year.*')).body;
  t.same(
    closed.map((e: { type: string; data: { snapshot: { year: number } } }) => [e.type, e.data.snapshot.year]),
    [['fiscal_year.closed', 2025]],
  );

  const key = await api('POST', '/system/api_keys', { label: 'temp' });
  t.equal((await api('DELETE', `/system/api_keys/${key.body.id}`)).status, 204);
  t.equal((await api('DELETE', `/system/api_keys/${key.body.id}`)).status, 404);
  const keyEvents = (await api('GET', '/events?type=api_key.*')).body;
  t.same(
    keyEvents.map((e: { type: string }) => e.type),
    ['api_key.created', 'api_key.deleted'],
  );
  t.notMatch(JSON.stringify(keyEvents), key.body.key, 'the key itself is in no event');
  const ids = ((await api('GET', '/events?limit=500')).body as { id: string }[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused changes',
  );
});
