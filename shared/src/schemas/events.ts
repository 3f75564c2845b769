/**
 * Events for integrations (docs/events.md): the types, who may read each, and the CloudEvents
 * 1.0 JSON shape the change feed answers and webhooks deliver.
 */
import type { Permission } from '../permissions.ts';
import type { Scope } from '../scopes.ts';

/** Every event type, grouped by the resource it is about. */
export const EVENT_TYPES = [
  'invoice.created',
  'invoice.posted',
  'invoice.paid',
  'invoice.partially_paid',
  'invoice.reversed',
  'invoice.emailed',
  'bill.created',
  'bill.posted',
  'bill.approved',
  'bill.paid',
  'bill.reversed',
  'payment.recorded',
  'payment.deleted',
  'journal_entry.posted',
  'journal_entry.reversed',
  'party.created',
  'party.updated',
  'bank_transaction.imported',
  'bank_transaction.matched',
  'bank_transaction.booked',
  'document.uploaded',
  'document.extracted',
  'fiscal_year.closed',
  'fiscal_year.reopened',
  'api_key.created',
  'api_key.deleted',
  'ai_connection.created',
  'ai_connection.ended',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What an event is about. Reading an event needs what reading its resource needs: the
 * permission of the resource's list, and for AI connections the area's read scope (null:
 * never shown to AI connections). Payments and parties differ by side.
 */
export const EVENT_RESOURCES = {
  invoice: { permission: 'customers.reports.transactions', scope: 'invoices:read' },
  bill: { permission: 'vendors.reports.transactions', scope: 'invoices:read' },
  customer_payment: { permission: 'customers.reports.transactions', scope: 'invoices:read' },
  vendor_payment: { permission: 'vendors.reports.transactions', scope: 'invoices:read' },
  journal_entry: { permission: 'gl.journal_entries', scope: 'accounting:read' },
  customer: { permission: 'customers.customers', scope: 'contacts:read' },
  vendor: { permission: 'vendors.vendors', scope: 'contacts:read' },
  bank_transaction: { permission: 'bank.bank_accounts', scope: 'bank:read' },
  document: { permission: 'documents.documents', scope: 'documents:read' },
  fiscal_year: { permission: 'system.fiscal_years', scope: 'accounting:read' },
  api_key: { permission: 'system.management.api_keys', scope: null },
  ai_connection: { permission: 'system.management.ai_connections', scope: null },
} as const satisfies Record<string, { permission: Permission; scope: Scope | null }>;
export type EventResource = keyof typeof EVENT_RESOURCES;

/** A subscription's or a feed filter's type pattern: a type, or `area.*` (every type of the area). */
export const EVENT_PATTERNS: readonly string[] = [
  ...EVENT_TYPES,
  ...[...new Set(EVENT_TYPES.map((t) => t.split('.')[0]!))].map((a) => `${a}.*`),
];

const timestamp = { type: 'string', format: 'date-time' } as const;

export const eventSchema = {
  type: 'object',
  description: 'A CloudEvents 1.0 event in its JSON format',
  required: ['specversion', 'id', 'type', 'source', 'time', 'subject', 'datacontenttype', 'sequence', 'data'],
  properties: {
    specversion: { type: 'string', enum: ['1.0'] },
    id: { type: 'string', description: "the event's id: its sequence number within the company" },
    type: { type: 'string', enum: EVENT_TYPES },
    source: { type: 'string', description: "the company's base URL" },
    time: timestamp,
    subject: { type: 'string', description: "the resource's read path, relative to source" },
    datacontenttype: { type: 'string', enum: ['application/json'] },
    sequence: { type: 'string', description: 'the per-company sequence (decimal): the change feed cursor' },
    data: {
      type: 'object',
      required: ['actor', 'resource', 'snapshot'],
      properties: {
        actor: {
          type: 'object',
          required: ['via', 'id', 'label', 'user_id'],
          properties: {
            via: { type: 'string', enum: ['api_key', 'ai_connection', 'cli', 'web', 'app', 'system'] },
            id: { type: ['string', 'null'] },
            label: { type: ['string', 'null'] },
            user_id: { type: ['integer', 'null'] },
          },
          additionalProperties: false,
        },
        resource: {
          type: 'object',
          required: ['type', 'id', 'url'],
          properties: {
            type: { type: 'string' },
            id: { type: ['integer', 'string'] },
            url: { type: 'string', description: "the resource's read URL" },
          },
          additionalProperties: false,
        },
        snapshot: {
          type: 'object',
          description: 'a small copy of the resource when the event happened (amounts, status); docs/events.md',
          additionalProperties: true,
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export const eventFeedQuerySchema = {
  type: 'object',
  properties: {
    after: {
      type: 'integer',
      minimum: 0,
      description: 'the cursor: the sequence of the last event seen (0 or absent: from the oldest kept)',
    },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    type: {
      type: 'string',
      maxLength: 1000,
      description: 'comma-separated event types or area.* patterns (e.g. invoice.*,payment.recorded)',
    },
  },
  additionalProperties: false,
} as const;

export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;

export const webhookSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'status', 'disabled_reason', 'created_at'],
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    status: { type: 'string', enum: WEBHOOK_STATUSES },
    disabled_reason: { type: ['string', 'null'] },
    created_at: timestamp,
  },
  additionalProperties: false,
} as const;

export const webhookCreatedSchema = {
  ...webhookSchema,
  required: [...webhookSchema.required, 'secret'],
  properties: {
    ...webhookSchema.properties,
    secret: { type: 'string', description: 'the signing secret (whsec_…); shown only in this answer' },
  },
} as const;

export const webhookCreateSchema = {
  type: 'object',
  required: ['url', 'events'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2000, description: 'https URL receiving the deliveries' },
    events: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      items: { type: 'string', enum: EVENT_PATTERNS },
    },
  },
  additionalProperties: false,
} as const;

export const webhookDeliverySchema = {
  type: 'object',
  required: ['id', 'event_id', 'event_type', 'reason', 'status', 'attempts', 'next_attempt_at', 'created_at', 'log'],
  properties: {
    id: { type: 'integer' },
    event_id: { type: 'string' },
    event_type: { type: 'string' },
    reason: { type: 'string', enum: ['event', 'redelivery', 'replay'] },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: timestamp,
    log: {
      type: 'array',
      items: {
        type: 'object',
        required: ['at', 'status_code', 'error', 'duration_ms'],
        properties: {
          at: timestamp,
          status_code: { type: ['integer', 'null'] },
          error: { type: ['string', 'null'] },
          duration_ms: { type: 'integer' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

export const webhookDeliveriesQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
  },
  additionalProperties: false,
} as const;

export const webhookReplaySchema = {
  type: 'object',
  required: ['after'],
  properties: {
    after: { type: 'integer', minimum: 0, description: 'replay every event after this sequence' },
  },
  additionalProperties: false,
} as const;

export const webhookQueuedSchema = {
  type: 'object',
  required: ['queued'],
  properties: { queued: { type: 'integer', description: 'deliveries queued' } },
  additionalProperties: false,
} as const;
