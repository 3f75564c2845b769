/**
 * Events of parties (party.updated) and of reopening a fiscal year (fiscal_year.reopened)
 * commit with their change; a refused change of the same kind leaves no event and no gap in
 * the sequence.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('party.updated and fiscal_year.reopened; refused changes leave none', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const events = async (type: string) =>
    (await api('GET', `/events?limit=500&type=${type}`)).body as {
      type: string;
      data: { resource: { id: number | string }; snapshot: Record<string, unknown> };
    }[];

  const party = await api('POST', '/arap/customer', { name: 'Before AG' });
  t.equal(party.status, 201);
  t.equal((await api('POST', `/arap/customer/${party.body.id}`, { name: 'After AG' })).status, 200);
  const refusedUpdate = await api('POST', `/arap/customer/${party.body.id}`, { currency: 'XXQ' });
  t.equal(refusedUpdate.status, 400, 'an unknown currency is refused');
  t.equal((await api('POST', '/arap/customer/999999', { name: 'Nobody AG' })).status, 404);
  const updated = await events('party.updated');
  t.equal(updated.length, 1, 'one party.updated: the accepted change');
  t.equal(String(updated[0]?.data.resource.id), String(party.body.id));
  t.equal(updated[0]?.data.snapshot.name, 'After AG', 'the snapshot is the changed party');
  t.equal((await api('GET', `/arap/customer/${party.body.id}`)).body.name, 'After AG', 'the change is there');

  const entry = {
    transdate: '2025-06-30',
    pending: '0',
    lines: [
      { account: '1020', debit: 500 },
      { account: '3400', credit: 500 },
    ],
  };
  t.equal((await api('POST', '/gl/transactions', entry)).status, 201);
  t.equal((await api('POST', '/system/fiscal_years/2025/close')).status, 200);
  const refusedReopen = await api('POST', '/system/close_books', { date: '2025-06-30' });
  t.equal(refusedReopen.status, 409, 'moving the closing date back without reopen is refused');
  t.same(await events('fiscal_year.reopened'), [], 'a refused reopening leaves no event');
  const reopened = await api('POST', '/system/close_books', { date: '2025-06-30', reopen: true });
  t.equal(reopened.status, 200);
  const reopenEvents = await events('fiscal_year.reopened');
  t.equal(reopenEvents.length, 1, 'one fiscal_year.reopened');
  t.equal(reopenEvents[0]?.data.snapshot.year, 2025);
  t.equal(reopenEvents[0]?.data.snapshot.closed_until, '2025-06-30');
  const reversal = await api('GET', `/gl/transactions/${reopenEvents[0]?.data.snapshot.reversal_id}`);
  t.equal(reversal.status, 200, 'the reversal of the closing entry named by the event exists');

  const ids = ((await api('GET', '/events?limit=500')).body as { id: string }[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused changes',
  );
});
