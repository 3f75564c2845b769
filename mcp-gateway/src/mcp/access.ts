/**
 * The connected person's permitted ledger endpoints (role permissions ∩ granted scopes), as
 * the ledger computes them, so tools/list shows only usable tools. The role → permission
 * table lives only in the ledger; the gateway asks and caches the answer briefly.
 */
import { LRUCache } from 'lru-cache';
import type { McpConnection, McpDeps } from './types.ts';

/** Ledger internal endpoint answering `{ role, endpoints: ["GET /arap/vendor", ...] }` for a member and scopes. */
export function accessPath(connection: McpConnection): string {
  const scope = encodeURIComponent(connection.scopes.join(' '));
  return (
    `/internal/companies/${encodeURIComponent(connection.dataset)}/members/` +
    `${encodeURIComponent(String(connection.userId))}/endpoints?scope=${scope}`
  );
}

interface AccessAnswer {
  role: string | null;
  endpoints: string[];
}

function isAccessAnswer(v: unknown): v is AccessAnswer {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    (typeof o.role === 'string' || o.role === null) &&
    Array.isArray(o.endpoints) &&
    o.endpoints.every((e) => typeof e === 'string')
  );
}

export class AccessCache {
  private readonly cache: LRUCache<string, ReadonlySet<string>>;

  constructor(
    private readonly deps: Pick<McpDeps, 'callInternal' | 'log'>,
    ttlMs: number,
  ) {
    // ttlAutopurge: an entry leaves the heap when it expires. Without it an expired entry
    // stayed until 10,000 newer ones pushed it out: every connection that ever listed its
    // tools kept its set (≈ 8 KB for an owner with every area), so the heap grew by that per
    // new connection up to ≈ 80 MB although only the last 30 s of entries can ever be used
    // (docs/benchmarks.md "Gateway soak").
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(1, ttlMs), ttlAutopurge: true });
  }

  /** The permitted endpoint keys, or undefined when the ledger could not say (then only scopes filter). */
  async permittedEndpoints(connection: McpConnection): Promise<ReadonlySet<string> | undefined> {
    const hit = this.cache.get(connection.id);
    if (hit) return hit;
    try {
      const res = await this.deps.callInternal('GET', accessPath(connection));
      if (res.status !== 200 || !isAccessAnswer(res.body)) {
        this.deps.log.warn(
          { conn: connection.id, status: res.status },
          'ledger did not report endpoint access; listing tools by scope only',
        );
        return undefined;
      }
      const set = new Set(res.body.endpoints);
      this.cache.set(connection.id, set);
      return set;
    } catch (err) {
      this.deps.log.warn(
        { conn: connection.id, err: err instanceof Error ? err.message : String(err) },
        'ledger unreachable for endpoint access',
      );
      return undefined;
    }
  }
}
