/**
 * A bank account (IBAN CH93 0076 2011 6238 5295 7 on 1020) and the ledger's camt.053 fixture
 * imported into it through the REST API, for tests of what assistants see of bank data.
 */
import { readFileSync } from 'node:fs';
import type { apiClient } from '../../../ledger-service/test/helpers.ts';

type Rest = ReturnType<typeof apiClient>;

export async function importBankStatement(
  rest: Rest,
): Promise<{ accountStatus: number; importStatus: number; body: unknown }> {
  const account = await rest('POST', '/bank/accounts', {
    name: 'Main CHF',
    iban: 'CH93 0076 2011 6238 5295 7',
    currency: 'CHF',
    account: '1020',
  });
  const camt = readFileSync(
    new URL('../../../ledger-service/test/fixtures/bank/camt.053.001.08.xml', import.meta.url),
    'utf8',
  );
  const imported = await rest('POST', '/bank/transactions/import', camt, { 'Content-Type': 'application/xml' });
  return { accountStatus: account.status, importStatus: imported.status, body: imported.body };
}
