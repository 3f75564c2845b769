/**
 * What both services' Prometheus metrics (prom-client) share: how often the event-loop lag is
 * sampled, and counters counted in memory on the request path and handed to prom-client when read.
 */

/**
 * How often the event-loop lag (`nodejs_eventloop_lag_*`) is sampled, ms. prom-client's
 * default, 10 ms, wakes the process 100 times a second whether or not it serves anything:
 * ≈ 3.5 ms of CPU a second on the 2-core benchmark machine under load, as much as a few MCP
 * calls or a bill (docs/benchmarks.md). Every pause of the loop of this length or more is
 * still seen; shorter ones are sampled.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** What a pending count is added to: a prom-client Counter. */
export interface CountsInto<L extends string> {
  inc(labels: Partial<Record<L, string>>, value: number): void;
}

/**
 * A counter's increments on the request path, counted per label set in a map of this process
 * and added to the prom-client counter when that is read (its `collect`: every scrape, and
 * `get()`). prom-client's own `inc` hashes and validates the label object on every call; read
 * values are the same, as a read adds what is pending first.
 */
export class PendingIncrements<L extends string> {
  readonly #byKey = new Map<string, { labels: Partial<Record<L, string>>; n: number }>();

  /** One more for the label set `key` names (`labels` are its values, kept at its first increment). */
  add(key: string, labels: Partial<Record<L, string>>): void {
    const pending = this.#byKey.get(key);
    if (pending) pending.n++;
    else this.#byKey.set(key, { labels, n: 1 });
  }

  /** Adds what is pending to `counter`. */
  flush(counter: CountsInto<L>): void {
    for (const pending of this.#byKey.values()) {
      if (pending.n === 0) continue;
      counter.inc(pending.labels, pending.n);
      pending.n = 0;
    }
  }
}
