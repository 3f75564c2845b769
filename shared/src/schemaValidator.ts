/**
 * The one ajv set-up for the JSON schemas of @ledger/shared: standard formats (ajv-formats)
 * plus the custom `iso-country` / `iso-currency` formats the schemas use. The ledger validates
 * requests with it and the test suites validate every answer with it, so both read the
 * schemas with the same formats.
 *
 * Imported as `@ledger/shared/schemaValidator` (not from the package index), so that code
 * which never validates does not load the country list.
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
// the library without its 80 translations of country names (entry-node.js loads them all): codes are all it checks
import countries from 'i18n-iso-countries/index.js';
import { isKnownCurrency } from './money.ts';

// ajv-formats is CommonJS: its default export is the plugin function
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A new ajv instance (with `options`) knowing every format the shared schemas use. */
export function createSchemaAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ strict: false, ...options });
  addFormats(ajv);
  ajv.addFormat('iso-country', { type: 'string', validate: (s: string) => countries.isValid(s) });
  ajv.addFormat('iso-currency', { type: 'string', validate: (s: string) => isKnownCurrency(s) });
  return ajv;
}
