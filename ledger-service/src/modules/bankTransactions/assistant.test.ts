/**
 * An assistant books a bank line only with the person's confirmation (kernel/confirmation.ts,
 * docs/bank.md "Assistants"): called with a service credential of an AI connection, booking
 * is refused with 428 and a preview naming the amount, the account and the counterparty,
 * nothing written; with the token the ledger issued it is booked.
 */
import t from 'tap';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { SERVICE_CREDENTIAL } from '@ledger/shared';
import { startLedger } from '../../server.ts';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';

t.test('book_bank_transaction: the person confirms amount, account and counterparty', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair(SERVICE_CREDENTIAL.algorithm, { extractable: true });
  const config = testConfig({ gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
  const ledger = { ...(await startLedger({ config })), config };
  t.teardown(() => ledger.close());
  const co = await createTestCompany(ledger, { swissInvoicing: true });
  await ledger.db('companies').where({ id: co.company.id }).update({ ai_connections_enabled: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const [bank] = (await api('GET', '/bank/accounts')).body;
  const csv = 'date,amount,currency,counterparty,iban,reference,description\n2024-03-28,-12.50,CHF,Demo Bank,,,Fee\n';
  const imported = await api('POST', `/bank/transactions/import?account=${bank.id}`, csv, {
    'Content-Type': 'text/csv',
  });
  t.equal(imported.status, 200, JSON.stringify(imported.body));
  const [line] = (await api('GET', '/bank/transactions')).body;

  const credential = await new SignJWT({ dataset: co.dataset, conn: 'conn-a', scope: 'bank:write', client_name: 'AI' })
    .setProtectedHeader({ alg: SERVICE_CREDENTIAL.algorithm })
    .setSubject(String(co.userId))
    .setIssuer(SERVICE_CREDENTIAL.issuer)
    .setAudience(SERVICE_CREDENTIAL.audience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
  const assistant = apiClient(ledger.url, co.dataset, undefined);
  const headers = { Authorization: `Bearer ${credential}`, 'X-Assistant-Tool': 'book_bank_transaction' };
  const body = { account: '6900' };
  const refused = await assistant('POST', `/bank/transactions/${line.id}/book`, body, headers);
  t.equal(refused.status, 428, JSON.stringify(refused.body));
  t.match(refused.body.error.preview, {
    effect: 'posts',
    gross: '-12.50',
    currency: 'CHF',
    party: 'Demo Bank',
    accounts: ['6900'],
    date: '2024-03-28',
  });
  t.equal((await api('GET', `/bank/transactions/${line.id}`)).body.status, 'unmatched', 'nothing booked');

  const token = refused.body.error.confirmation.token as string;
  const booked = await assistant('POST', `/bank/transactions/${line.id}/book`, body, {
    ...headers,
    'X-Assistant-Confirmation-Token': token,
  });
  t.equal(booked.status, 200, JSON.stringify(booked.body));
  t.match(booked.body, { status: 'booked', account: '6900' });
});
