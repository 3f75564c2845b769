/**
 * A value now or later: what a step of the MCP endpoint returns when it waits only
 * sometimes (pipeline.ts). `andThen` goes on at once with a value and after a promise, so
 * the common path of a call spends no promise, microtask turn or async-hooks callback on a
 * step that had nothing to wait for (docs/benchmarks.md "Gateway").
 */
export type Maybe<T> = T | Promise<T>;

/** `then` for a value that may be a promise: `next` runs at once on a value, after it on a promise. */
export function andThen<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
