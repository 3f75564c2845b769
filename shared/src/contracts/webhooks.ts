/** Webhook subscriptions and their deliveries: `/system/webhooks` (docs/events.md "Webhooks"). */
import {
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliverySchema,
  webhookQueuedSchema,
  webhookReplaySchema,
  webhookSchema,
} from '../schemas/events.ts';
import { contract } from './contract.ts';

const exampleWebhook = {
  id: 5,
  url: 'https://erp.example.com/hooks/ledger',
  events: ['invoice.*', 'payment.recorded'],
  status: 'active',
  disabled_reason: null,
  created_at: '2026-11-26T12:03:08.564Z',
} as const;

// webhooks hand the company's events to another system: who may do so is who may hand out API keys
const permission = 'system.management.api_keys';

export const listWebhooks = contract({
  name: 'listWebhooks',
  method: 'GET',
  path: '/system/webhooks',
  summary: 'List webhooks',
  description: "The company's webhook subscriptions, oldest first (without their secrets)",
  example: { response: [exampleWebhook] },
  permission,
  scope: null,
  response: { type: 'array', items: webhookSchema },
  errors: [],
});

export const createWebhook = contract({
  name: 'createWebhook',
  method: 'POST',
  path: '/system/webhooks',
  summary: 'Create a webhook',
  description:
    'Subscribes an https URL to event types (or area.* patterns). The answer carries the signing secret (whsec_…) ' +
    'once. The URL must resolve to public addresses only (no private, loopback or link-local targets); http and ' +
    'loopback targets only where the ledger allows them for development (WEBHOOKS_ALLOW_LOOPBACK=1)',
  example: {
    body: { url: exampleWebhook.url, events: exampleWebhook.events },
    response: { ...exampleWebhook, secret: 'whsec_RXhhbXBsZVNlY3JldE9ubHlTaG93bk9uY2U=' },
  },
  permission,
  scope: null,
  body: webhookCreateSchema,
  status: 201,
  location: '/system/webhooks/{id}',
  response: webhookCreatedSchema,
  errors: [],
});

export const getWebhook = contract({
  name: 'getWebhook',
  method: 'GET',
  path: '/system/webhooks/:id',
  summary: 'Read a webhook',
  description: 'One webhook subscription (without its secret): its URL, types and whether it is active',
  example: { params: { id: 5 }, response: exampleWebhook },
  permission,
  scope: null,
  response: webhookSchema,
  errors: [],
});

export const deleteWebhook = contract({
  name: 'deleteWebhook',
  method: 'DELETE',
  path: '/system/webhooks/:id',
  summary: 'Delete a webhook',
  description: 'Ends the subscription: nothing more is delivered to it, pending deliveries included',
  example: { params: { id: 5 } },
  permission,
  scope: null,
  status: 204,
  errors: [],
});

export const listWebhookDeliveries = contract({
  name: 'listWebhookDeliveries',
  method: 'GET',
  path: '/system/webhooks/:id/deliveries',
  summary: 'List deliveries of a webhook',
  description:
    'The newest deliveries of a webhook, each with its attempts (time, HTTP status or error, duration): the delivery ' +
    'log',
  example: {
    params: { id: 5 },
    query: { limit: 1 },
    response: [
      {
        id: 91,
        event_id: '42',
        event_type: 'invoice.paid',
        reason: 'event',
        // the receiver has not answered yet: pending, no attempt logged (each attempt adds
        // { at, status_code, error, duration_ms }; a delivered one has delivered_at)
        status: 'pending',
        attempts: 0,
        next_attempt_at: '2026-11-26T12:03:08.564Z',
        delivered_at: null,
        created_at: '2026-11-26T12:03:08.564Z',
        log: [],
      },
    ],
  },
  permission,
  scope: null,
  query: webhookDeliveriesQuerySchema,
  response: { type: 'array', items: webhookDeliverySchema },
  errors: [],
});

export const redeliverWebhookDelivery = contract({
  name: 'redeliverWebhookDelivery',
  method: 'POST',
  path: '/system/webhooks/:id/deliveries/:deliveryId/redeliver',
  summary: 'Redeliver an event to a webhook',
  description:
    "Queues the delivery's event once more (same webhook-id, so a receiver that saw it can tell), after what the " +
    'subscription has pending. A disabled webhook → 409',
  example: { params: { id: 5, deliveryId: 91 }, response: { queued: 1 } },
  permission,
  scope: null,
  status: 202,
  response: webhookQueuedSchema,
  errors: ['conflict'],
});

export const replayWebhook = contract({
  name: 'replayWebhook',
  method: 'POST',
  path: '/system/webhooks/:id/replay',
  summary: 'Replay events to a webhook from a cursor',
  description:
    'Queues every kept event after the cursor that the webhook subscribes to, in order, after what it has pending ' +
    '(at most 10,000 per call: replay again from the last one). A disabled webhook → 409',
  example: { params: { id: 5 }, body: { after: 41 }, response: { queued: 1 } },
  permission,
  scope: null,
  body: webhookReplaySchema,
  status: 202,
  response: webhookQueuedSchema,
  errors: ['conflict'],
});
