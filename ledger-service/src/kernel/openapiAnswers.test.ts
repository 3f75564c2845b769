/**
 * The OpenAPI document checked against real answers: for five endpoints, real requests to a
 * real ledger, and each answer's status must be one its operation in /openapi.json documents,
 * its body must validate against the schema documented for that status (errors against
 * components/schemas/Error), and the headers documented for lists must be there.
 */
import t, { type Test } from 'tap';
import { createSchemaAjv } from '@ledger/shared/schemaValidator';
import { arapSetup } from '../../test/arapHelpers.ts';

type Json = Record<string, any>;

interface RealAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

const ajv = createSchemaAjv({ allErrors: true });

/** `#/components/schemas/Error` → the schema it names in the document. */
function resolved(doc: Json, schema: Json): Json {
  const ref = schema.$ref as string | undefined;
  return ref
    ? (ref
        .slice(2)
        .split('/')
        .reduce((node: Json, key) => node[key], doc) as Json)
    : schema;
}

t.test('real answers of five endpoints match what /openapi.json documents', async (t) => {
  const s = await arapSetup(t);
  const doc = (await (await fetch(`${s.ledger.url}/openapi.json`)).json()) as Json;
  const base = `${s.ledger.url}/client/${s.co.dataset}`;

  /**
   * Asserts that `answer` is documented for `method path` (a path of the document) and returns the documented response.
   */
  const documented = (t: Test, method: string, path: string, answer: RealAnswer): Json => {
    const operation = doc.paths[path]?.[method.toLowerCase()] as Json | undefined;
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const response = operation.responses[String(answer.status)] as Json | undefined;
    t.ok(
      response,
      `${operation.operationId}: ${answer.status} is a documented status ` +
        `(${Object.keys(operation.responses).join(', ')})`,
    );
    if (!response) return {};
    const media = response.content?.['application/json'] as Json | undefined;
    if (answer.status === 204) {
      t.notOk(response.content, `${operation.operationId}: 204 documents no body`);
      t.equal(answer.body, '', 'and there is none');
      return response;
    }
    t.ok(media, `${operation.operationId}: ${answer.status} documents a JSON body`);
    const validate = ajv.compile(resolved(doc, media?.schema ?? {}));
    t.ok(
      validate(answer.body),
      `${operation.operationId} ${answer.status}: the body validates against the documented schema ` +
        `${ajv.errorsText(validate.errors)}`,
    );
    if (answer.status >= 400)
      t.equal(media?.schema?.$ref, '#/components/schemas/Error', 'an error status documents the Error schema');
    return response;
  };

  const send = async (method: string, path: string, body?: unknown): Promise<RealAnswer> => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        'X-API-Key': s.co.apiKey,
        ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
    };
  };

  t.test('createParty: 201', async (t) => {
    const created = await send('POST', '/arap/vendor', { name: 'Documented AG', country: 'CH', terms: 30 });
    t.equal(created.status, 201);
    documented(t, 'POST', '/arap/vendor', created);
    const invalid = await send('POST', '/arap/vendor', { name: '' });
    t.equal(invalid.status, 400);
    documented(t, 'POST', '/arap/vendor', invalid);
  });

  t.test('getParty: 200 and 404', async (t) => {
    const found = await send('GET', `/arap/vendor/${s.parties.vendor.id}`);
    t.equal(found.status, 200);
    documented(t, 'GET', '/arap/vendor/{id}', found);
    const missing = await send('GET', '/arap/customer/999999999');
    t.equal(missing.status, 404);
    documented(t, 'GET', '/arap/customer/{id}', missing);
  });

  t.test('listTransactions: 200 with the documented X-Total-Count and Link headers', async (t) => {
    for (let i = 0; i < 3; i++) t.equal((await send('POST', '/arap/transaction/vendor', s.doc('vendor'))).status, 201);
    const page = await send('GET', '/arap/transactions/vendor?limit=1&offset=1');
    t.equal(page.status, 200);
    const response = documented(t, 'GET', '/arap/transactions/vendor', page);
    t.same(Object.keys(response.headers ?? {}).sort(), ['Link', 'X-Total-Count'], 'both list headers are documented');
    t.ok(Number(page.headers.get('x-total-count')) >= 3, 'X-Total-Count is sent');
    t.match(
      page.headers.get('link'),
      /rel="next".*rel="prev"|rel="prev".*rel="next"/,
      'Link is sent (a middle page: next and prev)',
    );
  });

  t.test('deleteTransaction: 204 for a draft, 409 for a posted document', async (t) => {
    const draft = await send('POST', '/arap/transaction/vendor', s.doc('vendor'));
    const posted = await send('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
    t.equal(draft.status, 201);
    t.equal(posted.status, 201);
    const deleted = await send('DELETE', `/arap/transaction/vendor/${(draft.body as { id: number }).id}`);
    t.equal(deleted.status, 204);
    documented(t, 'DELETE', '/arap/transaction/vendor/{id}', deleted);
    const refused = await send('DELETE', `/arap/transaction/vendor/${(posted.body as { id: number }).id}`);
    t.equal(refused.status, 409);
    documented(t, 'DELETE', '/arap/transaction/vendor/{id}', refused);
  });

  t.test('createTransaction as multipart/form-data: 201', async (t) => {
    const operation = doc.paths['/arap/transaction/customer'].post as Json;
    t.ok(operation.requestBody.content['multipart/form-data'], 'multipart is a documented request body');
    const form = new FormData();
    form.append('transaction', JSON.stringify(s.doc('customer')));
    form.append('files', new Blob(['%PDF-1.4\n'], { type: 'application/pdf' }), 'invoice.pdf');
    const created = await send('POST', '/arap/transaction/customer', form);
    t.equal(created.status, 201, JSON.stringify(created.body));
    documented(t, 'POST', '/arap/transaction/customer', created);
  });
});
