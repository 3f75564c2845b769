/**
 * The shared schemas' own formats. The gateway checks them by shape only (their `pattern`
 * already fixes it; the ledger checks the code lists). Output schemas are advertised
 * without them: clients validate structuredContent with validators that do not know them,
 * and would warn about every unknown format.
 */
import { isRecord } from './isRecord.ts';

export const SHARED_FORMATS: Readonly<Record<string, RegExp>> = {
  'iso-country': /^[A-Z]{2}$/,
  'iso-currency': /^[A-Z]{3}$/,
};

/** A copy of the schema without the shared formats (standard ones such as `date` stay). */
export function withoutSharedFormats<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutSharedFormats) as T;
  if (!isRecord(schema)) return schema;
  const entries = Object.entries(schema)
    .filter(([key, value]) => !(key === 'format' && typeof value === 'string' && Object.hasOwn(SHARED_FORMATS, value)))
    .map(([key, value]) => [key, withoutSharedFormats(value)]);
  return Object.fromEntries(entries) as T;
}
