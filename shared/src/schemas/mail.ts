/** Bodies and answers of the e-mail endpoints (contracts/mail.ts). */
import { MAX_AMOUNT } from './transaction.ts';

const emailAddress = { type: 'string', format: 'email', maxLength: 254 } as const;
const addresses = {
  anyOf: [emailAddress, { type: 'array', items: emailAddress, minItems: 1, maxItems: 20 }],
  description: 'one address or a list',
} as const;

export const emailInvoiceSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    to: { ...addresses, description: "recipient(s); default: the customer's e-mail" },
    cc: addresses,
    subject: {
      type: 'string',
      minLength: 1,
      maxLength: 250,
      description: 'default: "Invoice <number> from <company>"',
    },
    message: {
      type: 'string',
      minLength: 1,
      maxLength: 20000,
      description: 'the text of the e-mail; default: a short cover note',
    },
  },
} as const;

export const messageQueuedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'message_id', 'status'],
  properties: {
    id: { type: 'integer', description: "the message; listed in the invoice's `emails`" },
    message_id: { type: 'string', description: 'the RFC 5322 Message-ID the e-mail carries' },
    status: { const: 'queued' },
  },
} as const;

export const invoiceReminderSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    message: {
      type: 'string',
      minLength: 1,
      maxLength: 20000,
      description: 'the text of the e-mail; default: the standard text of the reminder level',
    },
    fee: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_AMOUNT,
      description:
        "reminder fee in the invoice currency (at most its minor unit's decimals); booked as its own posted customer transaction on the company's reminder_fee_account",
    },
  },
} as const;

export const reminderQueuedSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...messageQueuedSchema.required, 'level', 'fee_transaction_id'],
  properties: {
    ...messageQueuedSchema.properties,
    level: {
      type: 'integer',
      minimum: 1,
      maximum: 3,
      description: "the reminder level this message is (the invoice's `reminder_level` from now on)",
    },
    fee_transaction_id: {
      type: ['integer', 'null'],
      description:
        'the posted customer transaction booking the fee (GET /arap/transaction/customer/{id}); null without fee',
    },
  },
} as const;
