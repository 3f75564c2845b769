import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('API key authentication', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);

  const ok = await apiClient(ledger.url, a.dataset, a.apiKey)('POST', '/auth/validate_api');
  t.equal(ok.status, 200);
  t.same(ok.body, { success: 1 });

  const missing = await apiClient(ledger.url, a.dataset, undefined)('POST', '/auth/validate_api');
  t.equal(missing.status, 401);
  t.equal(missing.body.error.code, 'unauthorized');

  const wrong = await apiClient(ledger.url, a.dataset, `ak_${'x'.repeat(43)}`)('POST', '/auth/validate_api');
  t.equal(wrong.status, 401);
  t.match(wrong.body.error.message, /not valid/);

  const cross = await apiClient(ledger.url, b.dataset, a.apiKey)('POST', '/auth/validate_api');
  t.equal(cross.status, 403);
  t.equal(cross.body.error.code, 'forbidden');
  t.match(cross.body.error.message, b.dataset);
});

t.test('a query without the company setting sees no rows (RLS)', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const rows = await ledger.db.transaction(async (tx) => {
    await tx.raw(`select set_config('role', 'ledger_app', true)`);
    const visible: { id: number }[] = await tx('accounts').select('id');
    return visible;
  });
  t.equal(rows.length, 0, 'no accounts visible without app.company_id');
  const own = await ledger.db.transaction(async (tx) => {
    await tx.raw(`select set_config('role', 'ledger_app', true), set_config('app.company_id', ?, true)`, [
      String(a.company.id),
    ]);
    const visible: { company_id: number }[] = await tx('accounts').select('company_id');
    return visible;
  });
  t.ok(own.length > 10, 'the company sees its own chart');
  t.ok(
    own.every((r) => r.company_id === a.company.id),
    'and only its own rows',
  );
});
