/**
 * The MCP endpoint's admission steps run in the declared order, on a real gateway and
 * ledger: a request failing two checks gets the earlier step's answer, so an unauthenticated
 * or throttled caller never has its body read, and a foreign Host is refused before its
 * token is looked at.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import t from 'tap';
import { extended, Pipeline } from '../src/mcp/pipeline.ts';
import { ADMISSION } from '../src/mcp/steps.ts';
import { PREPARE, SERVING_PATHS } from '../src/mcp/serve/paths.ts';
import { connect, eachStore } from './helpers.ts';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

t.test('the pipeline in one place', async (t) => {
  t.same(ADMISSION.names, [
    'checkHostAndOrigin',
    'authenticate',
    'limitRate',
    'readMessages',
    'checkScope',
    'checkConnection',
  ]);
  t.same(PREPARE.names, [
    'trackConnection',
    'chooseTools',
    'listPermitted',
    'takeElicitationAnswer',
    'rememberElicitation',
  ]);
  // the first path whose claim (its first name) takes the request serves it; the SDK's takes every request
  t.same(
    SERVING_PATHS.map((p) => [p.name, p.servedBy, p.names]),
    [
      [
        'legacyConfirm',
        'direct',
        ['claimLegacyConfirm', 'checkBeforeStream', 'openCallStream', 'askAndRun', 'finishCallStream'],
      ],
      [
        'direct',
        'direct',
        ['claimDirectCall', 'runDirectTool', 'checkToolOutput', 'refuseEndedConnection', 'writeDirectAnswer'],
      ],
      [
        'sdk',
        'sdk',
        ['claimSdk', 'toWebRequest', 'checkBeforeLegacyStream', 'runSdk', 'refuseEndedConnection', 'writeWebResponse'],
      ],
    ],
  );
});

t.test('every stage is its own file under mcp/serve/, named as the stage', async (t) => {
  const dir = new URL('../src/mcp/serve/', import.meta.url);
  const stages = [...PREPARE.names, ...SERVING_PATHS.flatMap((p) => p.names)];
  for (const name of new Set(stages)) {
    const text = readFileSync(new URL(`${name}.ts`, dir), 'utf8');
    t.match(text, new RegExp(`export (async )?function ${name}\\b`), `${name}.ts exports ${name}`);
  }
});

t.test('a request has one state object: each step extends it rather than copying it', async (t) => {
  const input = { req: 'the request' };
  const seen: object[] = [];
  const pipeline = Pipeline.start((_env: null, state: { req: string }) => {
    seen.push(state);
    return extended(state, { token: 'a token' });
  }).andThen((_env, state) => {
    seen.push(state);
    return extended(state, { body: { id: 1 } });
  });
  const out = pipeline.run(null, input);
  t.equal(out, input, 'the last step hands on the object the first one got');
  t.ok(
    seen.every((s) => s === input),
    'every step got that object',
  );
  t.same(out, { req: 'the request', token: 'a token', body: { id: 1 } });
  // the steps of the MCP endpoint itself: none copies its state by spreading it (pipeline.ts `extended`)
  const files = [
    new URL('../src/mcp/steps.ts', import.meta.url),
    new URL('../src/mcp/http.ts', import.meta.url),
    ...[...new Set([...PREPARE.names, ...SERVING_PATHS.flatMap((p) => p.names)])].map(
      (name) => new URL(`../src/mcp/serve/${name}.ts`, import.meta.url),
    ),
  ];
  for (const file of files)
    t.notMatch(readFileSync(file, 'utf8'), /\{ \.\.\.(state|admitted)\b/, `${file.pathname} spreads no state`);
});

eachStore(t, 'each step answers before the later ones run', async (t, { startStack }) => {
  const stack = await startStack(t, { MCP_RATE_LIMIT: '2' });
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'read' } });
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(resource, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body });
  const bearer = { authorization: `Bearer ${tokens.access_token}` };

  t.test('Host before the token: a foreign Host without a token is 403, not 401', async (t) => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(resource);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host: `rebind.example:${url.port}`, ...JSON_HEADERS },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    t.equal(status, 403);
  });

  t.test('the token before the body: no token and a body too large or not JSON is 401', async (t) => {
    const big = await post('x'.repeat(5 * 1024 * 1024));
    t.equal(big.status, 401);
    t.match(big.headers.get('www-authenticate') ?? '', /^Bearer resource_metadata=/);
    const notJson = await post('{not json', { authorization: 'Bearer mcpat_unknown' });
    t.equal(notJson.status, 401);
    t.match(await notJson.json(), { error: 'invalid_token' });
  });

  t.test(
    'a tool outside the scope is 403 insufficient_scope; the rate limit comes before the body is read',
    async (t) => {
      const write = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_vendor', arguments: { name: 'X' } },
        }),
        bearer,
      );
      t.equal(write.status, 403, 'contacts:read cannot call a write tool');
      t.match(write.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="contacts:write"/);
      const notJson = await post('{not json', bearer);
      t.equal(notJson.status, 400, 'the second request of the minute: read, and refused as not JSON');
      t.match(await notJson.json(), { jsonrpc: '2.0', id: null, error: { code: -32700 } });
      const throttled = await post('{not json', bearer);
      t.equal(throttled.status, 429, 'the third: throttled before its body is read');
      t.ok(Number(throttled.headers.get('retry-after')) >= 1);
      t.equal(throttled.headers.get('cache-control'), 'no-store');
    },
  );
});
