/**
 * The proxy's retry rule (docs/operations.md, "The public origin's proxy"): a connection-level
 * failure before any answer is retried once for idempotent requests without a body, and never
 * for a request with a body.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { startStack } from './helpers.ts';

/** How a broken connection ends: a plain close (FIN) or a reset (RST, ECONNRESET). */
type Breakage = 'close' | 'reset';

/**
 * A fault injector standing in for a ledger whose connection breaks: the gateway's LEDGER_URL
 * points here. Every request is counted; a request that finds a breakage queued is read to
 * its end and its connection then closed or reset without an answer (what the gateway sees
 * when the ledger drops a kept-alive connection just as it is reused); every other request
 * is forwarded to the real ledger and its answer relayed back.
 */
async function startFaultInjector(t: { teardown(fn: () => unknown): void }) {
  const breakages: Breakage[] = [];
  const attempts: string[] = [];
  let ledgerUrl: URL | undefined;

  const forward = (req: IncomingMessage, res: ServerResponse, target: URL) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    const breakage = breakages.shift();
    if (breakage === undefined) {
      if (!ledgerUrl) throw new Error('the fault injector has no ledger to forward to');
      return forward(req, res, ledgerUrl);
    }
    req.resume();
    req.once('end', () => (breakage === 'reset' ? req.socket.resetAndDestroy() : req.socket.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** the real ledger behind it (known only once the stack runs) */
    forwardTo(url: string) {
      ledgerUrl = new URL(url);
    },
    /** the next requests' connections break, one breakage per request, in order */
    breakNext(...kinds: Breakage[]) {
      breakages.push(...kinds);
    },
    /** how many requests with this method and path reached the injector, and forgets them */
    takeAttempts(method: string, path: string): number {
      const n = attempts.filter((a) => a === `${method} ${path}`).length;
      attempts.length = 0;
      return n;
    },
  };
}

async function brokenLedgerStack(t: Parameters<typeof startStack>[0]) {
  const injector = await startFaultInjector(t);
  const stack = await startStack(t, { LEDGER_URL: injector.url });
  injector.forwardTo(stack.ledger.url);
  const company = await stack.company();
  return { injector, stack, company, vendorsPath: `/client/${company.dataset}/arap/vendor` };
}

t.test('an idempotent request without a body is retried once after its connection breaks', async (t) => {
  const { injector, stack, company, vendorsPath } = await brokenLedgerStack(t);
  // one vendor, so the list the retried GET gets is recognisably the ledger's real answer
  const created = await fetch(`${stack.url}${vendorsPath}`, {
    method: 'POST',
    headers: { 'X-API-Key': company.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Retry Vendor AG', vendornumber: 'RT-1', country: 'CH' }),
  });
  t.equal(created.status, 201, await created.text());
  injector.takeAttempts('POST', vendorsPath);

  for (const breakage of ['close', 'reset'] as const) {
    injector.breakNext(breakage);
    const res = await fetch(`${stack.url}${vendorsPath}`, { headers: { 'X-API-Key': company.apiKey } });
    t.equal(res.status, 200, `${breakage}: the GET gets the ledger's answer`);
    const vendors = (await res.json()) as { vendornumber: string }[];
    t.same(
      vendors.map((v) => v.vendornumber),
      ['RT-1'],
      `${breakage}: the real list`,
    );
    t.equal(injector.takeAttempts('GET', vendorsPath), 2, `${breakage}: the broken attempt and one retry`);
  }
});

t.test('a second connection failure is not retried again', async (t) => {
  const { injector, stack, company, vendorsPath } = await brokenLedgerStack(t);
  injector.breakNext('close', 'close');
  const res = await fetch(`${stack.url}${vendorsPath}`, { headers: { 'X-API-Key': company.apiKey } });
  t.equal(res.status, 502);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.same(await res.json(), { error: { code: 'unavailable', message: 'The ledger cannot be reached.' } });
  t.equal(injector.takeAttempts('GET', vendorsPath), 2, 'one retry only');
});

t.test('a request with a body is not retried after its connection breaks', async (t) => {
  const { injector, stack, company, vendorsPath } = await brokenLedgerStack(t);
  injector.breakNext('close');
  const res = await fetch(`${stack.url}${vendorsPath}`, {
    method: 'POST',
    headers: { 'X-API-Key': company.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Not Retried AG', vendornumber: 'NR-1', country: 'CH' }),
  });
  t.equal(res.status, 502);
  t.same(await res.json(), { error: { code: 'unavailable', message: 'The ledger cannot be reached.' } });
  t.equal(injector.takeAttempts('POST', vendorsPath), 1, 'the posting reached the upstream once');

  // the break was the connection's, not the gateway's: the next request goes through, and the
  // posting that was not retried was not created either
  const list = await fetch(`${stack.url}${vendorsPath}`, { headers: { 'X-API-Key': company.apiKey } });
  t.equal(list.status, 200);
  t.same(await list.json(), [], 'no vendor was created');
});
