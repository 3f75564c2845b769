/**
 * The check every test answer goes through (support/answerContract.ts): requests find their
 * contract and side, real answers pass, and an answer that drifts from its contract fails.
 */
import t from 'tap';
import { assertAnswerMatchesContract, endpointOf } from './answerContract.ts';
import { apiClient, createTestCompany, startTestLedger } from '../helpers.ts';

t.test('a request finds its contract and side', async (t) => {
  const found = (method: string, path: string) => {
    const e = endpointOf(method, path);
    return e && `${e.contract.name}${e.side ? ` ${e.side}` : ''}`;
  };
  t.equal(found('GET', '/arap/vendor'), 'searchParties vendor');
  t.equal(found('POST', '/arap/customer'), 'createParty customer');
  t.equal(found('GET', '/arap/customer/7'), 'getParty customer');
  t.equal(found('POST', '/arap/vendor/7/bank_accounts'), 'createVendorBankAccount');
  t.equal(found('GET', '/arap/transaction/customer/5'), 'getTransaction customer');
  t.equal(found('POST', '/arap/transaction/vendor/5/approve'), 'approveTransaction vendor');
  t.equal(found('GET', '/arap/transactions/vendor'), 'listTransactions vendor');
  t.equal(found('get', '/system/taxes'), 'listTaxes', 'the method in any case');
  t.equal(found('GET', '/arap/supplier'), undefined, 'no contract');
  t.equal(found('PUT', '/arap/vendor'), undefined, 'no contract for the method');
});

t.test('real answers pass; drifted ones fail naming the request, the contract and the field', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const created = await api('POST', '/arap/vendor', { name: 'Contract Check AG', country: 'CH' });
  t.equal(created.status, 201);
  const read = await api('GET', `/arap/vendor/${created.body.id}`);
  t.equal(read.status, 200, 'the real answers passed the check inside the client');

  const url = `${ledger.url}/client/${co.dataset}/arap/vendor/${created.body.id}`;
  const answer = { method: 'GET', url, status: 200, contentType: 'application/json; charset=utf-8', body: read.body };
  t.doesNotThrow(() => assertAnswerMatchesContract(answer));

  const withoutName = { ...read.body };
  delete withoutName.name;
  t.throws(
    () => assertAnswerMatchesContract({ ...answer, body: withoutName }),
    new RegExp(
      'GET /arap/vendor/\\d+ → 200: the answer of getParty \\(vendor\\) does not match its schema: ' +
        "body must have required property 'name' \\(name\\)",
    ),
  );
  t.throws(
    () => assertAnswerMatchesContract({ ...answer, body: { ...read.body, nickname: 'x' } }),
    /must NOT have additional properties \(nickname\)/,
    'a field the schema does not declare',
  );
  t.throws(
    () => assertAnswerMatchesContract({ ...answer, body: { ...read.body, country: 'Switzerland' } }),
    /body\/country must match/,
    'a value against its field schema',
  );
  t.throws(
    () => assertAnswerMatchesContract({ ...answer, status: 201 }),
    /contract getParty \(vendor\) answers 200/,
    'another success status',
  );
  t.throws(
    () => assertAnswerMatchesContract({ ...answer, contentType: 'text/html' }),
    /must be JSON/,
    'JSON is promised',
  );
  t.throws(
    () => assertAnswerMatchesContract({ ...answer, method: 'PUT' }),
    /a success answer on a path no contract declares/,
  );

  const list = {
    method: 'GET',
    url: `${ledger.url}/client/${co.dataset}/arap/vendor?name=x`,
    status: 200,
    contentType: 'application/json',
    body: [read.body],
  };
  t.doesNotThrow(() => assertAnswerMatchesContract(list), 'a list: the array of read shapes');
  t.throws(() => assertAnswerMatchesContract({ ...list, body: read.body }), /body must be array/);

  const missing = await api('GET', '/arap/vendor/999999999');
  t.equal(missing.status, 404);
  const error = { ...answer, status: 404, body: missing.body };
  t.doesNotThrow(() => assertAnswerMatchesContract(error), 'an error answer: the error body');
  t.throws(
    () => assertAnswerMatchesContract({ ...error, body: { message: 'gone' } }),
    /the error body does not match its schema: body must have required property 'error'/,
  );
  t.throws(
    () =>
      assertAnswerMatchesContract({
        ...error,
        body: { error: { code: 'connection_not_allowed', message: 'm', reason: 'bored' } },
      }),
    /body\/error\/reason must be equal to one of the allowed values/,
  );

  t.doesNotThrow(
    () => assertAnswerMatchesContract({ ...answer, url: `${ledger.url}/healthz`, body: 'anything' }),
    'outside /client: not checked',
  );
  t.doesNotThrow(() => assertAnswerMatchesContract({ ...answer, status: 304, body: undefined }), '304: no body');
});
