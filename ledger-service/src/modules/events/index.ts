/**
 * The face of the events module (docs/events.md): what other modules use. Every change an
 * integration cares about calls `recordEvent` inside its own transaction, after its writes.
 */
export {
  eventActorJson,
  recordEvent,
  recordEvents,
  wakeSubscribers,
  type EventActorInput,
  type EventInput,
} from './service.ts';
export { ACTIVE_SUBSCRIPTION_SQL, eventsWrittenWith } from './store.ts';
export { eventRoutes } from './routes.ts';
export { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './worker.ts';
