/**
 * The MCP endpoint's steps go on without a promise where nothing waits (mcp/maybe.ts,
 * docs/benchmarks.md "Gateway"): a pipeline of steps that answer at once answers at once, in
 * order, and becomes a promise only from the first step that waits; a body that has fully
 * arrived is read at once, one still arriving by a promise, with the same bounds.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import t from 'tap';
import { McpAnswer } from '../src/mcp/answer.ts';
import { BodyTooLargeError, readBody, readJsonBody } from '../src/mcp/body.ts';
import { andThen } from '../src/mcp/maybe.ts';
import { Pipeline } from '../src/mcp/pipeline.ts';

type Trace = string[];

const first = (trace: Trace, n: number) => {
  trace.push('first');
  return n + 1;
};
const second = (trace: Trace, n: number) => {
  trace.push('second');
  return n * 10;
};
const waits = (trace: Trace, n: number) => {
  trace.push('waits');
  return Promise.resolve(n + 2);
};
const refuses = (trace: Trace, _n: number): number | McpAnswer => {
  trace.push('refuses');
  return McpAnswer.jsonRpcError(400, -32600, 'no');
};
const throws = (_trace: Trace, _n: number): number => {
  throw new Error('broken step');
};

t.test('a pipeline answers at once while its steps do, in order', async (t) => {
  const trace: Trace = [];
  const out = Pipeline.start(first).andThen(second).run(trace, 1);
  t.notOk(out instanceof Promise, 'no promise when no step waits');
  t.equal(out, 20);
  t.same(trace, ['first', 'second']);
});

t.test('from the first step that waits, a promise; the later steps run after it', async (t) => {
  const trace: Trace = [];
  const out = Pipeline.start(first).andThen(waits).andThen(second).run(trace, 1);
  t.ok(out instanceof Promise);
  t.same(trace, ['first', 'waits'], 'the step after the waiting one has not run yet');
  t.equal(await out, 40);
  t.same(trace, ['first', 'waits', 'second']);
});

t.test('a refusal ends the pipeline, at once or after a wait; a throwing step throws', async (t) => {
  const trace: Trace = [];
  t.ok(Pipeline.start(first).andThen(refuses).andThen(second).run(trace, 1) instanceof McpAnswer);
  t.same(trace, ['first', 'refuses']);
  const later: Trace = [];
  t.ok((await Pipeline.start(waits).andThen(refuses).andThen(second).run(later, 1)) instanceof McpAnswer);
  t.same(later, ['waits', 'refuses']);
  t.throws(() => Pipeline.start(first).andThen(throws).run([], 1), /broken step/);
  await t.rejects(Promise.resolve(Pipeline.start(waits).andThen(throws).run([], 1)), /broken step/);
});

t.test('andThen: at once on a value, after a promise', async (t) => {
  t.equal(
    andThen(2, (n) => n + 1),
    3,
  );
  const later = andThen(Promise.resolve(2), (n) => n + 1);
  t.ok(later instanceof Promise);
  t.equal(await later, 3);
});

/** A server whose handler reads the body with readJsonBody, at once or once the request has fully arrived. */
async function jsonServer(t: { teardown(fn: () => unknown): void }, whenComplete: boolean) {
  const outcomes: { atOnce: boolean; value?: unknown; error?: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const read = () => {
      let result: unknown;
      try {
        result = readJsonBody(req, { maxBytes: 16 });
      } catch (err) {
        outcomes.push({ atOnce: true, error: (err as Error).constructor.name });
        return void res.end();
      }
      const atOnce = !(result instanceof Promise);
      Promise.resolve(result).then(
        (value) => {
          outcomes.push({ atOnce, value });
          res.end();
        },
        (err: Error) => {
          outcomes.push({ atOnce, error: err.constructor.name });
          res.end();
        },
      );
    };
    // Node's parser hands the body over after the request event: once `complete`, it is all buffered
    if (whenComplete) setImmediate(read);
    else read();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: (server.address() as { port: number }).port, method: 'POST' },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { post, outcomes };
}

t.test('readJsonBody: a body that has arrived is read at once, within the same bounds', async (t) => {
  const { post, outcomes } = await jsonServer(t, true);
  await post('{"a":1}');
  await post('{"a":"0123456789abcdef"}');
  t.same(outcomes, [
    { atOnce: true, value: { a: 1 } },
    { atOnce: true, error: BodyTooLargeError.name },
  ]);
});

t.test('readJsonBody: a body still arriving is read by a promise', async (t) => {
  const { post, outcomes } = await jsonServer(t, false);
  await post('{"a":1}');
  await post('{"a":"0123456789abcdef"}');
  t.same(outcomes, [
    { atOnce: false, value: { a: 1 } },
    { atOnce: false, error: BodyTooLargeError.name },
  ]);
});

t.test('readBody: chunks as they come, an abort rejects, no listener of the read is left', async (t) => {
  const seen: { body?: string; error?: string; listeners: number[] }[] = [];
  const listeners = (req: IncomingMessage) => ['data', 'end', 'error', 'close'].map((e) => req.listenerCount(e));
  let arrived: () => void = () => undefined;
  const server = createServer((req: IncomingMessage, res) => {
    const before = listeners(req);
    readBody(req, 64).then(
      (body) => {
        seen.push({ body: body.toString(), listeners: listeners(req).map((n, i) => n - before[i]!) });
        res.end();
        arrived();
      },
      (err: Error) => {
        seen.push({ error: err.message, listeners: listeners(req).map((n, i) => n - before[i]!) });
        arrived();
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const port = (server.address() as { port: number }).port;
  // two chunks, some time apart
  const done = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const req = request({ host: '127.0.0.1', port, method: 'POST' }, (res) => res.resume());
  req.write('{"a":');
  await new Promise((resolve) => setTimeout(resolve, 20));
  req.end('1}');
  await done;
  // a client that goes away halfway
  const aborted = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const gone = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-length': '40' } });
  gone.on('error', () => undefined);
  gone.write('{"a":');
  await new Promise((resolve) => setTimeout(resolve, 20));
  gone.destroy();
  await aborted;
  t.same(seen, [
    { body: '{"a":1}', listeners: [0, 0, 0, 0] },
    { error: 'aborted', listeners: [0, 0, 0, 0] },
  ]);
});
