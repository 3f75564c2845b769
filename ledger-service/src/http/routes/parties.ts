import { numberField, partyCreatedSchema, partySchemas, partySearchQuerySchema, type Side } from '@ledger/shared';
import {
  createParty, deleteParty, getParty, PartyConflict, searchParties, updateParty, type PartyInput,
} from '../../db/parties.ts';
import { recordAudit } from '../../db/audit.ts';
import { ApiError } from '../errors.ts';
import type { RouteDef, RouteRequest } from '../route.ts';
import { idParam } from './params.ts';

/** Vendors and customers: `/arap/{vc}` with vc = vendor | customer. */

const bySide = <K extends 'create' | 'update' | 'read'>(k: K) =>
  ({ vendor: partySchemas.vendor[k], customer: partySchemas.customer[k] });

const listBySide = {
  vendor: { type: 'array', items: partySchemas.vendor.read },
  customer: { type: 'array', items: partySchemas.customer.read },
};

function side(req: RouteRequest): Side {
  return req.params.vc as Side;
}

function conflictToApi(err: unknown, vc: Side): never {
  if (err instanceof PartyConflict) throw new ApiError('conflict', err.message, `/${numberField(vc)}`);
  throw err;
}

export const partyRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/arap/:vc',
    summary: 'Search vendors or customers by name (case-insensitive, partial); sorted by name unless `sort` says otherwise',
    query: partySearchQuerySchema,
    responseBySide: listBySide,
    list: true,
    handler: async (req: RouteRequest<unknown, { name?: string; sort: string; limit: number; offset: number }>) =>
      searchParties(req.tx, side(req), req.query),
  },
  {
    method: 'POST',
    path: '/arap/:vc',
    summary: 'Create a vendor or customer; the number comes from the company sequence when omitted',
    bodyBySide: bySide('create'),
    status: 201,
    response: partyCreatedSchema,
    handler: async (req: RouteRequest<PartyInput>) => {
      const vc = side(req);
      const party = await createParty(req.tx, req.company, vc, req.body).catch((e) => conflictToApi(e, vc));
      await recordAudit(req.tx, req.company.id, req.actor, vc, party.id, 'create', { number: party[numberField(vc)], name: party.name });
      return { id: party.id, [numberField(vc)]: party[numberField(vc)] };
    },
  },
  {
    method: 'GET',
    path: '/arap/:vc/:id',
    summary: 'One vendor or customer',
    responseBySide: bySide('read'),
    handler: async (req) => {
      const vc = side(req);
      const party = await getParty(req.tx, vc, idParam(req.params.id, vc));
      if (!party) throw new ApiError('not_found', `No ${vc} with id ${req.params.id}.`);
      return party;
    },
  },
  {
    method: 'POST',
    path: '/arap/:vc/:id',
    summary: 'Update a vendor or customer: only the fields sent change; null clears an optional field',
    bodyBySide: bySide('update'),
    responseBySide: bySide('read'),
    handler: async (req: RouteRequest<PartyInput>) => {
      const vc = side(req);
      const id = idParam(req.params.id, vc);
      const party = await updateParty(req.tx, vc, id, req.body).catch((e) => conflictToApi(e, vc));
      if (!party) throw new ApiError('not_found', `No ${vc} with id ${req.params.id}.`);
      await recordAudit(req.tx, req.company.id, req.actor, vc, id, 'update', { fields: Object.keys(req.body) });
      return party;
    },
  },
  {
    method: 'DELETE',
    path: '/arap/:vc/:id',
    summary: 'Delete a vendor or customer that no document refers to (409 otherwise)',
    status: 204,
    handler: async (req) => {
      const vc = side(req);
      const id = idParam(req.params.id, vc);
      const result = await deleteParty(req.tx, vc, id);
      if (result === 'missing') throw new ApiError('not_found', `No ${vc} with id ${req.params.id}.`);
      if (result === 'referenced') {
        throw new ApiError('conflict', `The ${vc} is referenced by documents and cannot be deleted.`);
      }
      await recordAudit(req.tx, req.company.id, req.actor, vc, id, 'delete');
      return undefined;
    },
  },
];
