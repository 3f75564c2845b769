import type { FromSchema } from 'json-schema-to-ts';
import { lineDimensionsReadSchema, lineDimensionsSchema } from './dimensions.ts';
import {
  accountNumberSchema,
  amountSchema,
  currencySchema,
  dateSchema,
  documentNumberSchema,
  idSchema,
} from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';

/**
 * AR/AP transaction schemas (docs/posting.md "Write shape"). One write shape per side:
 * the vendor side carries `vendor_id`/`vendornumber` (and the payment-file fields), the
 * customer side `customer_id`/`customernumber`. Rules a schema cannot express (known
 * accounts, tax validity, decimals per currency, party match) are checked by the ledger.
 */
export type Vc = 'vendor' | 'customer';

/** Largest absolute amount accepted (NUMERIC(20,6) holds far more; JSON numbers stay exact below this). */
export const MAX_AMOUNT = 999_999_999_999;

const boundedAmount = { ...amountSchema, minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT } as const;

export const transactionLineSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account', 'amount'],
  properties: {
    account: { ...accountNumberSchema, description: 'expense (vendor) or revenue (customer) account number' },
    description: { type: 'string', maxLength: 1000 },
    amount: { ...boundedAmount, description: 'net amount, or gross when the document has taxincluded: true' },
    taxAccount: { ...accountNumberSchema, description: 'tax account number; the rate valid on invDate applies' },
    taxAmount: { ...boundedAmount, description: 'overrides the calculated tax of this line' },
    dimensions: lineDimensionsSchema,
  },
} as const;

export const transactionFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'data'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    data: { type: 'string', minLength: 1, description: 'data:<media_type>;base64,<data>' },
  },
} as const;

/** The files attached to a document as its read shape lists them (AR/AP documents, journal entries). */
export const attachedFilesSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: idSchema,
      name: { type: 'string' },
      mediaType: { type: 'string' },
      size: { type: 'integer' },
      url: { type: 'string' },
    },
  },
} as const;

/** The party reference of each side: its id or its number. */
const partyRefFields = {
  vendor: {
    vendor_id: { ...idSchema, description: 'the vendor; must already exist' },
    vendornumber: { type: 'string', minLength: 1, maxLength: 50, description: 'alternative to vendor_id' },
  },
  customer: {
    customer_id: { ...idSchema, description: 'the customer; must already exist' },
    customernumber: { type: 'string', minLength: 1, maxLength: 50, description: 'alternative to customer_id' },
  },
} as const;

const sideOnlyFields = {
  vendor: {
    payment_file: {
      type: 'integer',
      enum: [0, 1],
      description: '1 includes the bill in the next bank payment file (needs vc_bank_id)',
    },
    vc_bank_id: { ...idSchema, description: "the vendor's bank account (GET /arap/vendor/{id}/bank_accounts)" },
    paymentReference: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description:
        "the bill's payment reference: a QR reference (27 digits, mod-10 check digit; required when vc_bank_id is a QR-IBAN, refused otherwise) or an ISO 11649 creditor reference (RF + mod-97); spaces allowed",
    },
  },
  customer: {},
} as const;

function transactionWriteSchema<V extends Vc>(vc: V) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['invDate', 'lines'],
    properties: {
      type: { type: 'string', enum: ['transaction'] },
      ...partyRefFields[vc],
      documentNumber: documentNumberSchema("the party's own document number", 0),
      invNumber: documentNumberSchema("the service's number; from the company's sequence when omitted"),
      invDate: { ...dateSchema, description: 'document date; must lie after the books-closed date' },
      dueDate: dateSchema,
      curr: { ...currencySchema, description: 'document currency; default the company base currency' },
      exchangerate: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 1_000_000,
        description: 'rate against the base currency; default 1',
      },
      recordAccount: {
        ...accountNumberSchema,
        description: 'control account (AP for vendor, AR for customer); default the company setting',
      },
      description: { type: 'string', maxLength: 2000 },
      taxincluded: { type: 'boolean', description: 'true: line amounts are gross' },
      pending: {
        type: ['string', 'integer'],
        enum: ['0', 0],
        description: 'omitted: draft; "0" (or the number 0): post immediately',
      },
      ...sideOnlyFields[vc],
      lines: { type: 'array', minItems: 1, maxItems: 500, items: transactionLineSchema },
      files: { type: 'array', maxItems: 20, items: transactionFileSchema },
    },
  } as const;
}

export const vendorTransactionSchema = transactionWriteSchema('vendor');
export const customerTransactionSchema = transactionWriteSchema('customer');
export function transactionSchemaFor(vc: Vc) {
  return vc === 'vendor' ? vendorTransactionSchema : customerTransactionSchema;
}

/** The write shapes as TypeScript, derived from the schemas (so they cannot drift apart). */
export type VendorTransactionInput = FromSchema<typeof vendorTransactionSchema>;
export type CustomerTransactionInput = FromSchema<typeof customerTransactionSchema>;
export type TransactionInput = VendorTransactionInput | CustomerTransactionInput;
export type TransactionLineInput = FromSchema<typeof transactionLineSchema>;
export type TransactionFileInput = FromSchema<typeof transactionFileSchema>;

/** The party a write names on its side: `{vc}_id` and/or `{vc}number` (the body was validated for that side). */
export function partyRefOf(vc: Vc, input: TransactionInput): { id: number | undefined; number: string | undefined } {
  const fields: Partial<Record<`${Vc}_id`, number> & Record<`${Vc}number`, string>> = input;
  return { id: fields[`${vc}_id`], number: fields[`${vc}number`] };
}

/** The vendor side's payment fields; none on the customer side. */
export function paymentFieldsOf(
  input: TransactionInput,
): Pick<VendorTransactionInput, 'payment_file' | 'vc_bank_id' | 'paymentReference'> {
  return 'payment_file' in input || 'vc_bank_id' in input || 'paymentReference' in input ? input : {};
}

/** Whether a write asks to post: `pending` "0" or, as integrations often send it, the number 0. */
export function requestsPosting(input: Pick<TransactionInput, 'pending'>): boolean {
  return input.pending === '0' || input.pending === 0;
}

export const transactionReverseSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    date: { ...dateSchema, description: 'date of the reversing document; default today' },
    description: { type: 'string', maxLength: 2000 },
  },
} as const;

/** List filters naming the party, and the vendor side's payment-file flag. */
const listPartyFields = {
  vendor: {
    vendor_id: idSchema,
    vendornumber: { type: 'string', maxLength: 50 },
    payment_file: { type: 'integer', enum: [0, 1] },
  },
  customer: { customer_id: idSchema, customernumber: { type: 'string', maxLength: 50 } },
} as const;

export const TRANSACTION_SORT_KEYS = ['inv_date', 'id'] as const;

function transactionListQuery<V extends Vc>(vc: V) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      document_number: { type: 'string', maxLength: 100, description: "the party's own document number (exact match)" },
      inv_number: { type: 'string', maxLength: 100 },
      status: { type: 'string', enum: ['draft', 'posted', 'reversed'] },
      from: { ...dateSchema, description: 'invDate on or after' },
      to: { ...dateSchema, description: 'invDate on or before' },
      ...listPartyFields[vc],
      sort: sortSchema(TRANSACTION_SORT_KEYS, 'inv_date', 'inv_date (then id) or id'),
      ...pageQueryProperties,
    },
  } as const;
}
export const vendorTransactionListQuerySchema = transactionListQuery('vendor');
export const customerTransactionListQuerySchema = transactionListQuery('customer');

const readLine = {
  type: 'object',
  properties: {
    account: { type: 'string' },
    description: { type: 'string' },
    amount: { type: 'number', description: 'as written' },
    taxAccount: { type: 'string' },
    taxRate: { type: 'number' },
    taxAmount: { type: 'number', description: 'calculated or overridden tax of the line' },
    net: { type: 'number' },
    gross: { type: 'number' },
    dimensions: lineDimensionsReadSchema,
  },
} as const;

/** Read shape of one transaction (GET /arap/transaction/{vc}/{id}). */
export const transactionReadSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    type: { type: 'string', enum: ['transaction'] },
    vc: { type: 'string', enum: ['vendor', 'customer'] },
    vendor_id: idSchema,
    vendornumber: { type: 'string' },
    customer_id: idSchema,
    customernumber: { type: 'string' },
    name: { type: 'string', description: "the party's name" },
    invNumber: { type: 'string' },
    documentNumber: { type: 'string' },
    invDate: dateSchema,
    dueDate: dateSchema,
    currency: currencySchema,
    exchangerate: { type: 'number' },
    recordAccount: { type: 'string' },
    description: { type: 'string' },
    taxincluded: { type: 'boolean' },
    status: { type: 'string', enum: ['draft', 'posted', 'reversed'] },
    payment_file: { type: 'integer' },
    vc_bank_id: idSchema,
    paymentReference: {
      type: 'string',
      description: 'vendor documents: the payment reference (QR or RF creditor reference), compact form',
    },
    reversalOf: idSchema,
    reversedBy: idSchema,
    lines: { type: 'array', items: readLine },
    taxes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          taxAccount: { type: 'string' },
          rate: { type: 'number' },
          base: { type: 'number' },
          amount: { type: 'number' },
        },
      },
    },
    netAmount: { type: 'number' },
    taxAmount: { type: 'number' },
    grossAmount: { type: 'number' },
    baseGrossAmount: {
      type: 'number',
      description: 'gross in the company base currency, with the sign of grossAmount',
    },
    paid: { type: 'number', description: 'paid so far, in the document currency' },
    open: { type: 'number', description: 'grossAmount − paid, in the document currency' },
    payment_status: { type: 'string', enum: ['open', 'partial', 'paid'] },
    postings: {
      type: 'array',
      description:
        "ledger lines of a posted document, base currency, debit positive (its payments' lines are the payments' own: GET /arap/payments/{vc}?document_id=)",
      items: {
        type: 'object',
        properties: { account: { type: 'string' }, amount: { type: 'number' }, fxAmount: { type: 'number' } },
      },
    },
    files: attachedFilesSchema,
  },
} as const;

export const bankAccountCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['iban'],
  properties: {
    iban: { type: 'string', minLength: 15, maxLength: 50, description: 'IBAN; spaces allowed; checked with mod-97' },
    bic: { type: 'string', minLength: 8, maxLength: 11, description: 'BIC (8 or 11 characters)' },
    name: { type: 'string', maxLength: 200, description: 'account holder' },
    description: { type: 'string', maxLength: 200 },
  },
} as const;

/** A vendor bank account as entered, derived from its schema. */
export type BankAccountInput = FromSchema<typeof bankAccountCreateSchema>;

const nullableText = (maxLength: number, description?: string) =>
  ({ type: ['string', 'null'], maxLength, ...(description ? { description } : {}) }) as const;

/**
 * `POST /arap/vendor/{id}/bank_accounts/{bankId}`: only the fields sent change; null clears
 * `bic`, `name` or `description`. The ids are the path's only (an `id` here would be the
 * MCP tool's vendor id, the path's first parameter).
 */
export const vendorBankAccountUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    iban: {
      ...bankAccountCreateSchema.properties.iban,
      description: 'IBAN; checked with mod-97; unchangeable while a posted document names the account (409)',
    },
    bic: { ...bankAccountCreateSchema.properties.bic, type: ['string', 'null'] },
    name: nullableText(200, 'account holder'),
    description: nullableText(200),
  },
} as const;

export type BankAccountUpdate = FromSchema<typeof vendorBankAccountUpdateSchema>;

export const bankAccountReadSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    vendor_id: idSchema,
    iban: { type: 'string' },
    bic: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
  },
} as const;
