/**
 * Building blocks of the JSON schemas. These schemas are the single source for
 * ledger request validation (ajv), the OpenAPI document and MCP tool inputs.
 * Custom formats (`iso-country`, `iso-currency`) are registered by `createSchemaAjv` (schemaValidator.ts).
 */
import { CONNECTION_REFUSALS, type ConnectionRefusal } from '../connections.ts';

export const dateSchema = { type: 'string', format: 'date', description: 'yyyy-mm-dd' } as const;

/**
 * How a refused date is explained, by the REST API and the MCP tools alike: people type
 * 28.11.2026, so the answer names the one format every date field takes.
 */
export function dateFormatMessage(field: string): string {
  return `Field "${field}" must be a date as YYYY-MM-DD, e.g. 2026-11-28.`;
}
export const amountSchema = { type: 'number', description: 'JSON number in the document currency' } as const;
export const accountNumberSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 20,
  pattern: '^[0-9A-Za-z.-]+$',
  description: 'account number as shown in the chart of accounts',
} as const;
/**
 * A document number a client writes (invNumber, documentNumber, a journal entry's
 * reference, order and purchase order numbers): any text but control characters (C0 such
 * as CR, LF and tab, DEL, C1), which would change what a line of an e-mail, a PDF or a bank
 * payment file says. Slashes and backslashes are numbers' own ("2024/117" is one of the most
 * common styles); where a number becomes a file name (the invoice PDF, e-mail attachments,
 * downloads) that name is made safe where it is built (`safeFileName`, shared/src/fileNames.ts).
 */
export const DOCUMENT_NUMBER_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

export function documentNumberSchema<const D extends string>(description: D, minLength: 0 | 1 = 1) {
  return { type: 'string', minLength, maxLength: 100, pattern: DOCUMENT_NUMBER_PATTERN, description } as const;
}

/**
 * What a pattern of these schemas asks for, in words: the ledger's 400 says this instead
 * of the regular expression.
 */
export const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [DOCUMENT_NUMBER_PATTERN]: 'must not contain control characters (line breaks, tabs, …)',
};

/** A language of documents and people: German, French, Italian or English (i18n/languages.ts). */
export const languageSchema = {
  type: 'string',
  enum: ['de', 'fr', 'it', 'en'],
  description: 'de, fr, it or en',
} as const;

/** The same, also null (an update clears it; a read shows null when unset). */
export const nullableLanguageSchema = {
  type: ['string', 'null'],
  enum: ['de', 'fr', 'it', 'en', null],
  description: 'de, fr, it or en; null: not set',
} as const;

export const currencySchema = {
  type: 'string',
  pattern: '^[A-Z]{3}$',
  format: 'iso-currency',
  description: 'ISO 4217 code',
} as const;

/** Why a write that sends `currency` is refused (400 invalid_currency naming `/curr`). */
export const CURRENCY_ON_WRITE_MESSAGE =
  'Send the currency as "curr" (three letters); "currency" only appears when reading.';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a write sends `currency` in place of `curr`: the JSON pointer of the `curr` it
 * should have sent, else undefined. On write the field is `curr` and `currency` only
 * appears in reads, so wherever a write schema declares `curr` (and no `currency` of its
 * own), a `currency` beside it is that mistake — at the top of a body or in an object
 * nested in it (the inbox's `overrides`). Derived from the schema, so the ledger's body
 * validation and the MCP tools' input validation refuse it alike, on every write shape.
 */
export function currencyOnWrite(schema: unknown, value: unknown): string | undefined {
  const found = misplacedCurrency(schema, value);
  return found && `/${found.reverse().join('/')}`;
}

/**
 * currencyOnWrite's walk: the way to the `curr` that should have been sent, innermost segment
 * first (JSON-pointer escaped), else undefined. The pointer's text is made only for a body that
 * has the mistake: a valid body (every write) is walked without building a string per field.
 */
function misplacedCurrency(schema: unknown, value: unknown): string[] | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = misplacedCurrency(schema.items, value[i]);
      if (found) {
        found.push(String(i));
        return found;
      }
    }
    return undefined;
  }
  const properties = schema.properties;
  if (!isPlainObject(value) || !isPlainObject(properties)) return undefined;
  if ('curr' in properties && !('currency' in properties) && Object.hasOwn(value, 'currency')) return ['curr'];
  for (const name in properties) {
    if (!Object.hasOwn(properties, name) || !Object.hasOwn(value, name)) continue;
    const found = misplacedCurrency(properties[name], value[name]);
    if (found) {
      found.push(name.replace(/~/g, '~0').replace(/\//g, '~1'));
      return found;
    }
  }
  return undefined;
}

/**
 * Ids are Postgres bigint and JSON numbers: bounded by 2^53 - 1, the largest integer a
 * JSON number carries exactly (also the bigint ids' practical range), so 1e21 is a 400,
 * not a value the database cannot parse.
 */
export const MAX_ID = 9007199254740991;
export const idSchema = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
export const vcSchema = { type: 'string', enum: ['vendor', 'customer'] } as const;

export const errorBodySchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        field: { type: 'string', description: 'JSON pointer of the field at fault' },
        reason: {
          type: 'string',
          enum: Object.keys(CONNECTION_REFUSALS) as ConnectionRefusal[],
          description: 'with connection_not_allowed (AI connections only): why the connection may no longer act',
        },
        errors: {
          type: 'array',
          description: 'a refused batch: every problem, by the index of its document and the field inside it',
          items: {
            type: 'object',
            required: ['index', 'field', 'code', 'message'],
            properties: {
              index: { type: 'integer', minimum: 0 },
              field: { type: 'string' },
              code: { type: 'string' },
              message: { type: 'string' },
            },
          },
        },
        preview: {
          type: 'object',
          description:
            'with confirmation_required: what the write would do, computed by the ledger with the rules of the ' +
            'write itself (nothing written): effect, gross, net, tax, currency, party, accounts, and the answer',
        },
        confirmation: {
          type: 'object',
          required: ['token', 'expires_at'],
          description:
            'with confirmation_required: the token to send in X-Assistant-Confirmation-Token once the person said ' +
            'yes; valid once, for 10 minutes, for the same connection, tool and request',
          properties: { token: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } },
        },
      },
    },
  },
} as const;

export const createdSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: idSchema },
} as const;

export const listQuerySchema = {
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  offset: { type: 'integer', minimum: 0, maximum: MAX_ID, default: 0 },
} as const;
