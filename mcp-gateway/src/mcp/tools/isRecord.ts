/** A JSON object (not an array, not null): the shape ledger answers and schemas are checked for. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
