/** The services catalogue (`/arap/services`): what invoice items name by service_id or partnumber. */
import {
  serviceCreateSchema,
  serviceCreatedSchema,
  serviceListQuerySchema,
  serviceReadSchema,
  serviceUpdateSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listServices = contract({
  name: 'listServices',
  method: 'GET',
  path: '/arap/services',
  summary: 'List catalogue services',
  description:
    'List catalogue services, filtered by active flag or a text in description or partnumber; ordered by partnumber ' +
    'unless `sort` says otherwise',
  example: examples.listServices,
  permission: 'services.services',
  scope: 'invoices:read',
  query: serviceListQuerySchema,
  response: { type: 'array', items: serviceReadSchema },
  list: true,
  errors: [],
});

export const createService = contract({
  name: 'createService',
  method: 'POST',
  path: '/arap/services',
  summary: 'Add a service to the catalogue',
  description: "Add a service to the catalogue; the partnumber comes from the company's sequence when omitted",
  example: examples.createService,
  permission: 'services.add_service',
  scope: 'invoices:write',
  effect: 'none',
  body: serviceCreateSchema,
  status: 201,
  location: '/arap/services/{id}',
  response: serviceCreatedSchema,
  errors: ['invalid_currency', 'conflict'],
});

export const getService = contract({
  name: 'getService',
  method: 'GET',
  path: '/arap/services/:id',
  summary: 'Read a service',
  description:
    'One catalogue service: partnumber, description, unit, price, currency, accounts and whether it is active.',
  example: examples.getService,
  permission: 'services.services',
  scope: 'invoices:read',
  response: serviceReadSchema,
  errors: [],
});

export const updateService = contract({
  name: 'updateService',
  method: 'POST',
  path: '/arap/services/:id',
  summary: 'Change a service',
  description:
    'Update a service: only the fields sent change; null clears unit or an account; `active: false` deactivates it',
  example: examples.updateService,
  permission: 'services.add_service',
  scope: 'invoices:write',
  effect: 'none',
  body: serviceUpdateSchema,
  response: serviceReadSchema,
  errors: ['invalid_currency', 'conflict'],
});

export const deleteService = contract({
  name: 'deleteService',
  method: 'DELETE',
  path: '/arap/services/:id',
  summary: 'Delete a service',
  description: 'Delete a service no invoice uses (409 otherwise: deactivate it instead)',
  example: examples.deleteService,
  permission: 'services.add_service',
  scope: 'invoices:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});
