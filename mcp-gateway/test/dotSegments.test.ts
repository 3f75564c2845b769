import t from 'tap';
import { rawExchange, parseRaw } from '../../ledger-service/test/rawHttp.ts';
import { startStack } from './helpers.ts';

/**
 * Encoded dot segments sent byte for byte through the public origin (a URL-normalising
 * client would turn them into other paths before sending): the gateway forwards /client/*
 * as written, and whatever the ledger makes of them, the answer is the JSON error body and
 * never another route's (another company's list, the API keys, the internal API).
 */
t.test('encoded dot segments through the gateway: the JSON error body, never another route', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const b = await stack.company();
  const paths = [
    `/client/${a.dataset}/arap/vendor/%2e%2e/%2e%2e/system/api_keys`,
    `/client/${a.dataset}/arap/%2E%2E/system/api_keys`,
    `/client/${a.dataset}/%2e%2e/${b.dataset}/arap/vendor`,
    `/client/${a.dataset}/arap/..%2f..%2fsystem/api_keys`,
    `/client/%2e%2e/internal/companies/${a.dataset}`,
    `/client/${a.dataset}/arap/vendor/%2e%2e%5csystem%5capi_keys`,
  ];
  for (const path of paths) {
    const raw = await rawExchange(
      stack.url,
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\nX-API-Key: ${a.apiKey}\r\nConnection: ` +
        `close\r\n\r\n`,
    );
    const res = parseRaw(raw);
    t.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
    t.match(res.headers['content-type'], /^application\/json/, `${path}: JSON`);
    t.type((JSON.parse(res.body) as { error: { code: string } }).error.code, 'string', `${path}: the error body`);
    t.notMatch(res.body, /"prefix"|"label"|"vendornumber"|"dataset"/, `${path}: no other route's answer`);
  }
});
