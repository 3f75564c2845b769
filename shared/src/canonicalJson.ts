/**
 * JSON with object keys sorted at every level (undefined members left out, as JSON.stringify
 * does), so two encodings of one value compare equal whatever their key order. The ledger
 * fingerprints idempotent requests with it, and the gateway derives the Idempotency-Key of
 * MCP write tools from it.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
