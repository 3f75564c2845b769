/**
 * On write the currency field is `curr`; `currency` only appears in reads. Every write
 * contract whose body takes `curr` (at its top or in a nested object such as the inbox's
 * `overrides`) answers `currency` with 400 invalid_currency naming that `curr`, before
 * anything else is looked at and without writing.
 */
import t from 'tap';
import { CONTRACTS, currencyOnWrite, forSide, sidesOf } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../test/helpers.ts';

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema };

/** The property paths of the objects of a schema that declare `curr` (and no `currency`). */
function currPaths(schema: Schema | undefined, at: string[] = []): string[][] {
  if (!schema || typeof schema !== 'object') return [];
  if (schema.type === 'array') return currPaths(schema.items, [...at, '0']);
  const properties = schema.properties ?? {};
  const here = 'curr' in properties && !('currency' in properties) ? [at] : [];
  return [...here, ...Object.entries(properties).flatMap(([name, child]) => currPaths(child, [...at, name]))];
}

/** `{ currency: 'CHF' }` placed at a path: `['overrides']` → `{ overrides: { currency: 'CHF' } }`. */
function bodyWithCurrencyAt(path: readonly string[]): unknown {
  return path.reduceRight<unknown>((inner, name) => (name === '0' ? [inner] : { [name]: inner }), { currency: 'CHF' });
}

const WRITES = CONTRACTS.filter((c) => c.body).flatMap((c) =>
  sidesOf(c).flatMap((side) =>
    currPaths(forSide(c.body!, side) as Schema).map((path) => ({ contract: c, side, path })),
  ),
);

t.test('the write shapes taking curr are found', async (t) => {
  const names = new Set(WRITES.map((w) => w.contract.name));
  for (const name of [
    'createParty',
    'updateParty',
    'createTransaction',
    'updateTransaction',
    'approveTransaction',
    'createInvoice',
    'updateInvoice',
    'approveInvoice',
    'createJournalEntry',
    'updateJournalEntry',
    'createService',
    'updateService',
    'bookInboxEntry',
  ]) {
    t.ok(names.has(name), name);
  }
  t.equal(
    currencyOnWrite({ type: 'object', properties: { curr: {}, currency: {} } }, { currency: 'CHF' }),
    undefined,
    'a schema with its own currency field keeps it',
  );
  t.equal(
    currencyOnWrite({ type: 'object', properties: { name: {} } }, { currency: 'CHF' }),
    undefined,
    'no curr: an ordinary unknown field',
  );
  const nested = {
    type: 'object',
    properties: { 'a/b~c': { type: 'array', items: { type: 'object', properties: { curr: {} } } } },
  };
  t.equal(
    currencyOnWrite(nested, { 'a/b~c': [{ curr: 'CHF' }, { currency: 'EUR' }] }),
    '/a~1b~0c/1/curr',
    'the pointer: array index, names escaped',
  );
  t.equal(currencyOnWrite(nested, { 'a/b~c': [{ curr: 'CHF' }] }), undefined, 'nothing misplaced');
});

t.test('every write shape with curr: currency → 400 invalid_currency naming curr, nothing written', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const auditCount = async () => Number((await api('GET', '/system/audit?limit=1')).headers.get('x-total-count'));
  const before = await auditCount();
  for (const { contract, side, path } of WRITES) {
    const url = (side ? contract.path.replace(':vc', side) : contract.path).replace(/:\w+/g, '1');
    const field = `/${[...path, 'curr'].join('/')}`;
    const name = `${contract.name}${side ? ` (${side})` : ''} ${field}`;
    for (const body of [
      bodyWithCurrencyAt(path),
      { ...(bodyWithCurrencyAt(path) as object), description: 'with other fields' },
    ]) {
      const res = await api('POST', url, body);
      t.equal(res.status, 400, `${name}: 400`);
      // a batch names each refused document by index, with the field inside that document
      const batch = /^\/transactions\/(\d+)(\/.*)$/.exec(field);
      const refusal = batch ? res.body.error.errors?.[0] : res.body.error;
      if (batch) t.equal(refusal?.index, Number(batch[1]), `${name}: names the document`);
      t.equal(refusal?.code, 'invalid_currency', `${name}: invalid_currency`);
      t.equal(refusal?.field, batch ? batch[2] : field, `${name}: names curr`);
      t.match(refusal?.message, /"curr"/, `${name}: the message says to send curr`);
    }
  }
  t.equal(await auditCount(), before, 'nothing was written');
});
