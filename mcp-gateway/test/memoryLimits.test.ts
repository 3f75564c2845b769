/**
 * The limits counted in process memory (limits.ts `MemoryWindows`, the rules of
 * rate-limiter-flexible's memory limiter): a key's window starts with its first point and
 * refuses past the quota until it ends; a block holds the key for its own time; the MCP
 * limit answers at once (`takeNow`), so the MCP endpoint's admission needs no promise for it.
 */
import t from 'tap';
import { Limiter, memoryLimits, MemoryWindows } from '../src/limits.ts';

const policy = { name: 'test', quota: 2, windowSeconds: 60 };

t.test('a window from the first point: the quota, then refusals until it ends', async (t) => {
  let now = 1_000_000;
  const limiter = new Limiter(new MemoryWindows(2, 60, () => now), policy);
  t.same(limiter.takeNow('a'), { allowed: true, retryAfterSeconds: 0, remaining: 1 }, 'answered at once');
  now += 10_000;
  t.same(await limiter.take('a'), { allowed: true, retryAfterSeconds: 0, remaining: 0 });
  now += 500;
  t.same(limiter.takeNow('a'), { allowed: false, retryAfterSeconds: 50, remaining: 0 }, 'until the first point + 60 s');
  t.same(limiter.takeNow('b'), { allowed: true, retryAfterSeconds: 0, remaining: 1 }, 'each key its own window');
  now += 49_500;
  t.same(limiter.takeNow('a'), { allowed: true, retryAfterSeconds: 0, remaining: 1 }, 'a new window once it ended');
});

t.test('add, block, blockedMs and forget (the sign-in backoff)', async (t) => {
  let now = 0;
  const limiter = new Limiter(new MemoryWindows(1, 60, () => now), policy);
  t.equal(await limiter.add('k'), 1);
  t.equal(await limiter.add('k'), 2, 'add counts past the quota without refusing');
  t.equal(await limiter.blockedMs('free'), 0);
  await limiter.block('free', 2.2);
  t.equal(await limiter.blockedMs('free'), 3000, 'blocked for whole seconds');
  now += 2_999;
  t.equal(await limiter.blockedMs('free'), 1);
  now += 1;
  t.equal(await limiter.blockedMs('free'), 0, 'free once the block ends');
  await limiter.block('free', 5);
  await limiter.forget('free');
  t.equal(await limiter.blockedMs('free'), 0, 'forgotten');
});

t.test('the memory store: every limit answers at once', async (t) => {
  const limiter = memoryLimits().limiter({ name: 'mcp', points: 1, duration: 60 });
  t.match(limiter.takeNow('conn'), { allowed: true });
  t.match(limiter.takeNow('conn'), { allowed: false, remaining: 0 });
});

t.test('ended windows are swept as keys come and go', async (t) => {
  let now = 0;
  const windows = new MemoryWindows(1, 1, () => now);
  for (let i = 0; i < 10_000; i++) windows.add(`old-${i}`, 1);
  now += 2_000;
  windows.add('new', 1);
  t.equal(windows.get('old-0'), undefined);
  t.equal((windows as unknown as { windows: Map<string, unknown> }).windows.size, 1, 'only the live key is kept');
});
