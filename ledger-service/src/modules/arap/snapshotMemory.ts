/**
 * The rule snapshots of recent AR/AP documents, remembered between requests so that a bill like
 * the last one goes to Postgres as one message (issue 37: a bill's CPU is mostly its round trips).
 *
 * Why it is safe: a remembered snapshot is never trusted. The document's statement recomputes the
 * same snapshot from the same parameters and compares its digest (`md5` of the row, computed by
 * Postgres both times) with the remembered one; when they differ the statement fails before
 * anything commits (`staleReadCheck`), the entry is forgotten and the request runs again reading
 * the snapshot afresh. A remembered snapshot only ever saves the round trip of reading it. The
 * key holds the company, so one company's entry is never read for another; each entry is what
 * that company's own row-level-security-scoped read returned.
 *
 * Bounded: the least recently used entry goes first once `MAX_ENTRIES` are held (a few KB each).
 */
const MAX_ENTRIES = 1000;

export class SnapshotMemory<Row> {
  private readonly entries = new Map<string, Row>();

  constructor(private readonly max = MAX_ENTRIES) {}

  recall(key: string): Row | undefined {
    const row = this.entries.get(key);
    if (row === undefined) return undefined;
    // the most recently used goes last: Map keeps insertion order
    this.entries.delete(key);
    this.entries.set(key, row);
    return row;
  }

  remember(key: string, row: Row): void {
    this.entries.delete(key);
    this.entries.set(key, row);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
