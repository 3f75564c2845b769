/**
 * The ledger holds an AI connection's write that posts, pays, sends or deletes until the
 * person confirmed it (kernel/confirmation.ts), whatever the gateway does: called directly
 * with a service credential, a posting is refused with 428 and the ledger's own preview
 * (the gross of service-priced items with their tax), nothing written; the token it hands
 * out confirms that one write once, for that connection, tool and body, for 10 minutes.
 * Drafts, API keys and a company that allows it are not held; a dunning run is held when it
 * sends, not when it runs dry or has nothing to send.
 */
import t from 'tap';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { SERVICE_CREDENTIAL } from '@ledger/shared';
import { startLedger } from '../server.ts';
import { apiClient, createTestCompany, testConfig } from '../../test/helpers.ts';

const TOOL = { 'X-Assistant-Tool': 'create_invoice' };

t.test('an assistant posts only with a valid, unused confirmation the ledger issued', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair(SERVICE_CREDENTIAL.algorithm, { extractable: true });
  let clock = Date.now();
  const config = testConfig({ gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
  const ledger = { ...(await startLedger({ config, now: () => clock })), config };
  t.teardown(() => ledger.close());
  const co = await createTestCompany(ledger);
  await ledger.db('companies').where({ id: co.company.id }).update({ ai_connections_enabled: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', { name: 'Globex Corp' });
  const service = await api('POST', '/arap/services', {
    description: 'Support hour',
    unit: 'h',
    price: 150,
    income_account: '3400',
    taxAccount: '2200',
  });
  t.equal(service.status, 201, JSON.stringify(service.body));

  const credential = (conn: string) => sign(privateKey, co.dataset, co.userId, conn);
  const asAssistant = apiClient(ledger.url, co.dataset, undefined);
  const bearerA = { Authorization: `Bearer ${await credential('conn-a')}` };
  const bearerB = { Authorization: `Bearer ${await credential('conn-b')}` };
  const invoice = (quantity: number, extra: Record<string, unknown> = {}) => ({
    type: 'invoice',
    customer_id: customer.body.id,
    invDate: '2026-03-15',
    pending: '0',
    items: [{ service_id: service.body.id, quantity }],
    ...extra,
  });
  const invoices = async () => ((await api('GET', '/arap/documents/customer')).body as unknown[]).length;

  // without a confirmation: refused, with the ledger's own figures, nothing written
  const refused = await asAssistant('POST', '/arap/invoice/customer', invoice(2), { ...bearerA, ...TOOL });
  t.equal(refused.status, 428, JSON.stringify(refused.body));
  t.equal(refused.body.error.code, 'confirmation_required');
  // 2 × 150.00 priced by the service, 8.1 % tax: 300.00 + 24.30
  t.match(refused.body.error.preview, {
    effect: 'posts',
    gross: '324.30',
    net: '300.00',
    tax: '24.30',
    currency: 'CHF',
    party: 'Globex Corp',
  });
  t.ok(refused.body.error.preview.accounts.includes('3400'), 'the revenue account');
  t.ok(refused.body.error.preview.accounts.includes('2200'), 'the tax account');
  t.equal(await invoices(), 0, 'nothing written by the refused write');
  const token = refused.body.error.confirmation.token as string;
  const withToken = (bearer: object, extra: object = TOOL) => ({
    ...bearer,
    ...extra,
    'X-Assistant-Confirmation-Token': token,
  });

  // a token of another input, tool or connection confirms nothing
  const otherInput = await asAssistant('POST', '/arap/invoice/customer', invoice(3), withToken(bearerA));
  t.equal(otherInput.status, 428, 'another input');
  t.match(otherInput.body.error.message, /not for this connection, tool and request/);
  t.equal(otherInput.body.error.preview.gross, '486.45', 'its own preview: 3 × 150.00 + 8.1 %');
  const otherTool = await asAssistant(
    'POST',
    '/arap/invoice/customer',
    invoice(2),
    withToken(bearerA, { 'X-Assistant-Tool': 'update_invoice' }),
  );
  t.equal(otherTool.status, 428, 'another tool');
  const otherConnection = await asAssistant('POST', '/arap/invoice/customer', invoice(2), withToken(bearerB));
  t.equal(otherConnection.status, 428, 'another connection');
  t.equal(await invoices(), 0);

  // the confirmed write stands, once
  const posted = await asAssistant('POST', '/arap/invoice/customer', invoice(2), withToken(bearerA));
  t.equal(posted.status, 201, JSON.stringify(posted.body));
  const read = (await api('GET', `/arap/invoice/customer/${posted.body.id}`)).body;
  t.equal(read.grossAmount, 324.3);
  t.equal(read.invNumber, refused.body.error.preview.number, 'the refused previews used up no invoice number');
  const replayed = await asAssistant('POST', '/arap/invoice/customer', invoice(2), {
    ...withToken(bearerA),
    'Idempotency-Key': 'another-request-id',
  });
  t.equal(replayed.status, 428, 'the same confirmation again (another request id) is refused');
  t.match(replayed.body.error.message, /already used/);
  t.equal(await invoices(), 1, 'one invoice');

  // a token lives 10 minutes
  const fresh = await asAssistant('POST', '/arap/invoice/customer', invoice(1), { ...bearerA, ...TOOL });
  const late = fresh.body.error.confirmation.token as string;
  t.equal(Date.parse(fresh.body.error.confirmation.expires_at), clock + 10 * 60_000);
  clock += 10 * 60_000;
  const expired = await asAssistant('POST', '/arap/invoice/customer', invoice(1), {
    ...bearerA,
    ...TOOL,
    'X-Assistant-Confirmation-Token': late,
  });
  t.equal(expired.status, 428, 'expired after 10 minutes');
  t.match(expired.body.error.message, /older than 10 minutes/);
  const inTime = await asAssistant('POST', '/arap/invoice/customer', invoice(1), { ...bearerA, ...TOOL });
  clock += 10 * 60_000 - 1;
  const justInTime = await asAssistant('POST', '/arap/invoice/customer', invoice(1), {
    ...bearerA,
    ...TOOL,
    'X-Assistant-Confirmation-Token': inTime.body.error.confirmation.token,
  });
  t.equal(justInTime.status, 201, 'valid until the 10 minutes are over');

  // not held: a draft, an API key, a company that lets assistants post
  const draft = await asAssistant('POST', '/arap/invoice/customer', invoice(1, { pending: undefined }), {
    ...bearerA,
    ...TOOL,
  });
  t.equal(draft.status, 201, 'a draft posts nothing');

  // a payment and a deletion are held the same way, each with its own preview
  const payment = { document_id: posted.body.id, date: '2026-03-20', amount: 100, account: '1020' };
  const pay = await asAssistant('POST', '/arap/payment/customer', payment, {
    ...bearerA,
    'X-Assistant-Tool': 'record_payment',
  });
  t.equal(pay.status, 428, JSON.stringify(pay.body));
  t.match(pay.body.error.preview, { effect: 'pays', gross: '100.00', currency: 'CHF', party: 'Globex Corp' });
  t.equal((await api('GET', `/arap/invoice/customer/${posted.body.id}`)).body.paid, 0, 'no payment recorded');
  const removal = await asAssistant('DELETE', `/arap/invoice/customer/${draft.body.id}`, undefined, bearerA);
  t.equal(removal.status, 428, 'deleting is held too');
  t.match(removal.body.error.preview, { effect: 'deletes', gross: '162.15', party: 'Globex Corp' }, 'what goes');
  const removed = await asAssistant('DELETE', `/arap/invoice/customer/${draft.body.id}`, undefined, {
    ...bearerA,
    'X-Assistant-Confirmation-Token': removal.body.error.confirmation.token,
  });
  t.equal(removed.status, 204, 'confirmed: deleted');
  t.equal((await api('POST', '/arap/invoice/customer', invoice(1))).status, 201, 'an API key is no assistant');
  await api('POST', '/system/company', { ai_may_post_without_confirmation: true });
  const allowed = await asAssistant('POST', '/arap/invoice/customer', invoice(1), { ...bearerA, ...TOOL });
  t.equal(allowed.status, 201, 'the company lets AI connections post without confirmation');
});

t.test('a dunning run that sends is held; its dry run and a run with nothing to send are not', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair(SERVICE_CREDENTIAL.algorithm, { extractable: true });
  const config = testConfig({ gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
  const ledger = { ...(await startLedger({ config })), config };
  t.teardown(() => ledger.close());
  const co = await createTestCompany(ledger);
  await ledger.db('companies').where({ id: co.company.id }).update({ ai_connections_enabled: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const text = { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Pagare.', en: 'Please pay.' };
  t.equal((await api('POST', '/system/company', { dunning: { levels: [{ days: 5, fee: 10, text }] } })).status, 200);
  const customer = await api('POST', '/arap/customer', { name: 'Globex Corp' });
  const invoice = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customer.body.id,
    invDate: '2026-03-02',
    terms: 10,
    pending: '0',
    items: [{ description: 'Beratung', quantity: 1, price: 300, account: '3400', taxAccount: '2200' }],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  const asAssistant = apiClient(ledger.url, co.dataset, undefined);
  const headers = {
    Authorization: `Bearer ${await sign(privateKey, co.dataset, co.userId, 'conn-a')}`,
    'X-Assistant-Tool': 'run_dunning',
  };
  const run = { date: '2026-04-01' };
  const runs = async () => ((await api('GET', '/arap/dunning/runs')).body as unknown[]).length;

  const dry = await asAssistant('POST', '/arap/dunning/run', { ...run, dry_run: true }, headers);
  t.equal(dry.status, 200, 'a dry run only reads');
  t.match(dry.body.items, [{ invoice_id: invoice.body.id, level: 1, fee: 10 }]);
  const held = await asAssistant('POST', '/arap/dunning/run', run, headers);
  t.equal(held.status, 428, JSON.stringify(held.body));
  t.match(held.body.error.preview, {
    effect: 'posts',
    date: '2026-04-01',
    answer: { items: [{ invoice_id: invoice.body.id, level: 1, fee: 10, open: 324.3 }] },
  });
  t.equal(await runs(), 0, 'nothing sent, no fee booked');
  const sent = await asAssistant('POST', '/arap/dunning/run', run, {
    ...headers,
    'X-Assistant-Confirmation-Token': held.body.error.confirmation.token,
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  t.equal(await runs(), 1, 'confirmed: sent');
  const again = await asAssistant('POST', '/arap/dunning/run', run, headers);
  t.equal(again.status, 200, 'nothing left to send: nothing to confirm');
  t.same(again.body.items, []);
});

t.test(
  "an assistant's bill without a confirmation writes nothing, also where its statement could carry the COMMIT",
  async (t) => {
    const { publicKey, privateKey } = await generateKeyPair(SERVICE_CREDENTIAL.algorithm, { extractable: true });
    const config = testConfig({ gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
    const ledger = { ...(await startLedger({ config, mail: false, inbox: false, webhooks: false })), config };
    t.teardown(() => ledger.close());
    const co = await createTestCompany(ledger);
    await ledger.db('companies').where({ id: co.company.id }).update({ ai_connections_enabled: true });
    const api = apiClient(ledger.url, co.dataset, co.apiKey);
    const vendor = await api('POST', '/arap/vendor', { name: 'Acme Supplies' });
    const bill = {
      type: 'transaction',
      vendor_id: vendor.body.id,
      invDate: '2026-03-15',
      pending: '0',
      lines: [{ account: '6500', amount: 100, taxAccount: '1170' }],
    };
    // the bill route's statement commits the transaction where nothing follows it (createTransaction `last`); the
    // confirmation is checked after the handler, so it must keep it open: once the statement is prepared on the
    // connection (after the API key's bills below), a refused confirmation would otherwise find the bill committed
    for (let i = 0; i < 5; i++) t.equal((await api('POST', '/arap/transaction/vendor', bill)).status, 201);
    const bills = async () =>
      Number((await ledger.db('arap_transactions').where({ company_id: co.company.id }).count({ n: '*' }))[0]!.n);
    const before = await bills();
    const asAssistant = apiClient(ledger.url, co.dataset, undefined);
    const headers = {
      Authorization: `Bearer ${await sign(privateKey, co.dataset, co.userId, 'conn-a')}`,
      'X-Assistant-Tool': 'create_bill',
    };
    for (let i = 0; i < 5; i++) {
      const refused = await asAssistant('POST', '/arap/transaction/vendor', bill, headers);
      t.equal(refused.status, 428, 'refused without a confirmation');
    }
    t.equal(await bills(), before, 'none of the refused bills stands');
  },
);

function sign(key: CryptoKey, dataset: string, userId: number, conn: string): Promise<string> {
  return new SignJWT({ dataset, conn, scope: 'contacts:write invoices:write accounting:write', client_name: 'Test AI' })
    .setProtectedHeader({ alg: SERVICE_CREDENTIAL.algorithm })
    .setSubject(String(userId))
    .setIssuer(SERVICE_CREDENTIAL.issuer)
    .setAudience(SERVICE_CREDENTIAL.audience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}
