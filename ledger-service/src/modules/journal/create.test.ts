/**
 * Creating a journal entry writes number, header, lines, ledger lines and (without files) its
 * audit entry in one statement (store.ts insertJournalEntry): the reference follows the
 * company's number format, skips numbers taken by hand, and the audit entry says what was
 * written, with the number of files attached when files come along.
 */
import t from 'tap';
import { withTenant } from '../../db/knex.ts';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { rentEntry } from '../../../test/fixtures/journal.ts';

const entry = rentEntry;

t.test('references from the format, numbers taken by hand skipped, the audit entry of each create', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  await ledger
    .db('companies')
    .where({ id: co.company.id })
    .update({ settings: { number_formats: { gl_transaction: 'JV-{0000}-24' } } });

  const first = await api('POST', '/gl/transactions', entry({ pending: '0' }));
  t.equal(first.status, 201, JSON.stringify(first.body));
  const byHand = await api('POST', '/gl/transactions', entry({ reference: 'JV-0002-24' }));
  t.equal(byHand.status, 201);
  const next = await api('POST', '/gl/transactions', entry());
  t.equal(next.status, 201);
  const taken = await api('POST', '/gl/transactions', entry({ reference: 'JV-0002-24', pending: '0' }));
  t.equal(taken.status, 409, 'a reference sent that is taken is a conflict');
  t.equal(taken.body.error.field, '/reference');
  const file = { name: 'receipt.txt', data: `data:text/plain;base64,${Buffer.from('paid').toString('base64')}` };
  const withFile = await api('POST', '/gl/transactions', entry({ pending: '0', files: [file, file] }));
  t.equal(withFile.status, 201, JSON.stringify(withFile.body));

  const ids = [first, byHand, next, withFile].map((r) => r.body.id as number);
  const rows = await withTenant(ledger.db, co.company.id, async (tx) => ({
    headers: await tx('gl_transactions').whereIn('id', ids).orderBy('id').select('reference', 'status'),
    lines: await tx('gl_lines').whereIn('journal_id', ids).count({ n: '*' }).first(),
    entries: await tx('ledger_entries').whereIn('journal_id', ids).orderBy('id').select('journal_id'),
    audit: (
      await tx.raw<{ rows: { entity_id: string; action: string; via: string; user_id: number; details: unknown[] }[] }>(
        `select entity_id, action, via, user_id,
                json_build_array(details->'reference', details->'status', details->'files', details->'lines',
                                 details->'debit') as details
           from audit_log where entity = 'journal_entry' order by id`,
      )
    ).rows,
  }));
  t.same(
    rows.headers.map((h) => [h.reference, h.status]),
    [
      ['JV-0001-24', 'posted'],
      ['JV-0002-24', 'draft'],
      ['JV-0003-24', 'draft'],
      ['JV-0004-24', 'posted'],
    ],
    'JV-0002-24, taken by hand, is skipped by the sequence',
  );
  t.equal(Number(rows.lines?.n), 8, 'two lines each');
  t.same(
    rows.entries.map((e) => e.journal_id),
    [ids[0], ids[0], ids[3], ids[3]],
    'ledger lines only for posted entries',
  );
  t.same(
    rows.audit.map((a) => [Number(a.entity_id), a.action, ...a.details]),
    [
      [ids[0], 'create_posted', 'JV-0001-24', 'posted', 0, 2, '1500.00'],
      [ids[1], 'create', 'JV-0002-24', 'draft', 0, 2, '1500.00'],
      [ids[2], 'create', 'JV-0003-24', 'draft', 0, 2, '1500.00'],
      [ids[3], 'create_posted', 'JV-0004-24', 'posted', 1, 2, '1500.00'],
    ],
    'one audit entry per create; equal files attached once',
  );
  t.ok(
    rows.audit.every((a) => a.via === 'api_key' && a.user_id === co.userId),
    'who and via what',
  );
});
