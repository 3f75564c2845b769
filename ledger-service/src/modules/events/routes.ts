import { contracts } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';
import { idParam } from '../../kernel/params.ts';
import { route, type RouteRequest } from '../../kernel/route.ts';
import { loadEncryptionKey } from '../../secretKey.ts';
import {
  createWebhook,
  eventById,
  eventFeed,
  redeliver,
  removeWebhook,
  replay,
  webhookById,
  webhookDeliveries,
  webhooks,
  type WebhookSettings,
} from './service.ts';
import { DEFAULT_EVENT_SETTINGS } from './settings.ts';

/** The change feed (`/events`) and webhook subscriptions (`/system/webhooks`), docs/events.md. */

function config(req: Pick<RouteRequest, 'ctx'>): LedgerConfig {
  return req.ctx.config as LedgerConfig;
}

function webhookSettings(req: Pick<RouteRequest, 'ctx'>): WebhookSettings {
  const c = config(req);
  const events = c.events ?? DEFAULT_EVENT_SETTINGS;
  return { encryptionKey: loadEncryptionKey(c), allowLoopback: events.allowLoopback, queue: events.webhookQueue };
}

function nextLink(req: Pick<RouteRequest, 'ctx'>, after: number): string {
  const url = new URL(`${req.ctx.protocol}://${req.ctx.host}${req.ctx.path}`);
  for (const [k, v] of Object.entries(req.ctx.query))
    if (k !== 'after' && typeof v === 'string') url.searchParams.set(k, v);
  url.searchParams.set('after', String(after));
  return `<${url.href}>; rel="next"`;
}

export const eventRoutes = [
  route(contracts.listEvents, async (req) => {
    const page = await eventFeed(req, config(req).publicUrl, req.query);
    // always a next link: an empty page's is where to poll again
    req.ctx.set('Link', nextLink(req, page.next));
    return page.events;
  }),
  route(contracts.getEvent, async (req) => eventById(req, config(req).publicUrl, idParam(req.params.id, 'event'))),
  route(contracts.listWebhooks, async (req) => webhooks(req)),
  route(contracts.createWebhook, async (req) => createWebhook(req, webhookSettings(req), req.body)),
  route(contracts.getWebhook, async (req) => webhookById(req, idParam(req.params.id, 'webhook'))),
  route(contracts.deleteWebhook, async (req) => removeWebhook(req, idParam(req.params.id, 'webhook'))),
  route(contracts.listWebhookDeliveries, async (req) =>
    webhookDeliveries(req, idParam(req.params.id, 'webhook'), req.query),
  ),
  route(contracts.redeliverWebhookDelivery, async (req) =>
    redeliver(req, idParam(req.params.id, 'webhook'), idParam(req.params.deliveryId, 'delivery')),
  ),
  route(contracts.replayWebhook, async (req) => replay(req, idParam(req.params.id, 'webhook'), req.body.after)),
];
