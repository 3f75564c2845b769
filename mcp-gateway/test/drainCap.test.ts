/**
 * Abandoned bodies (shared/src/httpServer.ts, docs/operations.md "The public origin's
 * proxy"): after answering early, both services read the rest of a body into nothing so the
 * connection stays usable, but only up to ABANDONED_BODY_LIMIT; a body going on beyond that
 * has its connection cut.
 */
import { connect } from 'node:net';
import t from 'tap';
import { ABANDONED_BODY_LIMIT } from '@ledger/shared/httpServer';
import { startStack } from './helpers.ts';

interface Upload {
  /** everything the server sent before the connection ended */
  received: string;
  /** body bytes the server took before it cut the connection */
  sent: number;
}

/**
 * Announces a body of `length` bytes without an API key (so the answer, 401, comes before the
 * body is read) and writes it as fast as the connection takes it until it is all sent or the
 * server closes the connection.
 */
function uploadWithoutKey(url: string, path: string, length: number): Promise<Upload> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const chunks: Buffer[] = [];
    let sent = 0;
    const pump = () => {
      while (sent < length && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    // EPIPE / ECONNRESET when the server cuts the connection mid-body: that is the point
    socket.on('error', () => {});
    socket.on('close', () => resolve({ received: Buffer.concat(chunks).toString('utf8'), sent }));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${length}\r\n\r\n`,
    );
    pump();
  });
}

t.test('a body far beyond the cap is cut off after the answer; the next connection is served', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const path = `/client/${company.dataset}/arap/vendor`;
  const announced = 4 * ABANDONED_BODY_LIMIT;
  for (const [service, url] of [
    ['ledger', stack.ledger.url],
    ['public origin', stack.url],
  ] as const) {
    const upload = await uploadWithoutKey(url, path, announced);
    t.match(upload.received, /^HTTP\/1\.1 401 /, `${service}: the answer came before the body was read`);
    t.match(upload.received, /"code":"unauthorized"/, `${service}: the JSON error body`);
    t.ok(upload.sent < announced, `${service}: cut off after ${upload.sent} of ${announced} bytes`);
    t.ok(upload.sent > ABANDONED_BODY_LIMIT, `${service}: not before the cap`);

    const next = await fetch(`${url}${path}`, { headers: { 'X-API-Key': company.apiKey } });
    t.equal(next.status, 200, `${service}: the next request on a new connection is served`);
    await next.body?.cancel();
  }
});

t.test('a body below the cap is read to its end and the connection stays usable', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const path = `/client/${company.dataset}/arap/vendor`;
  const { hostname, port } = new URL(stack.ledger.url);
  const body = 'a'.repeat(2 * 1024 * 1024);
  const answers = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // both answers in: the second request was read after the first one's abandoned body
      if (
        (
          Buffer.concat(chunks)
            .toString('utf8')
            .match(/HTTP\/1\.1 \d{3} /g) ?? []
        ).length === 2
      )
        socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${body.length}\r\n\r\n${body}`,
    );
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nX-API-Key: ${company.apiKey}\r\n\r\n`);
  });
  const statuses = [...answers.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  t.same(statuses, [401, 200], 'the refused upload, then the next request on the same connection');
});
