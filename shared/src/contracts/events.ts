/** The change feed: `/events` (docs/events.md). */
import { eventFeedQuerySchema, eventSchema } from '../schemas/events.ts';
import { contract } from './contract.ts';

const exampleEvent = {
  specversion: '1.0',
  id: '42',
  type: 'party.created',
  source: 'https://ledger.example.com/client/muster-treuhand',
  time: '2026-11-26T12:03:08.564Z',
  subject: '/arap/customer/7',
  datacontenttype: 'application/json',
  sequence: '42',
  data: {
    actor: { via: 'api_key', id: '3', label: 'erp sync', user_id: 1 },
    resource: { type: 'customer', id: 7, url: 'https://ledger.example.com/client/muster-treuhand/arap/customer/7' },
    snapshot: { side: 'customer', number: 'C-0007', name: 'Muster AG' },
  },
} as const;

export const listEvents = contract({
  name: 'listEvents',
  method: 'GET',
  path: '/events',
  summary: 'List events (the change feed)',
  description:
    'Events in the order they happened, after the cursor `after` (the sequence of the last event seen), as ' +
    'CloudEvents 1.0 JSON. The Link header names the next page (rel=next, also when this page is empty: poll it ' +
    'later). A cursor stays valid for the retention of events (400 days unless configured). Only events whose ' +
    'resource the caller may read are listed (a key without bank permission sees no bank events); `type` filters by ' +
    'types or area.* patterns',
  example: { query: { after: 41, limit: 1 }, response: [exampleEvent] },
  permission: null,
  scope: 'accounting:read',
  query: eventFeedQuerySchema,
  response: { type: 'array', items: eventSchema },
  errors: [],
});

export const getEvent = contract({
  name: 'getEvent',
  method: 'GET',
  path: '/events/:id',
  summary: 'Read one event',
  description:
    'One event by its id (its sequence number); 404 when there is none or the caller may not read its resource',
  example: { params: { id: 42 }, response: exampleEvent },
  permission: null,
  scope: 'accounting:read',
  response: eventSchema,
  errors: [],
});
