/** Contacts area: vendors and customers (REST `/arap/{vc}`). */
import { partySchemas, partySearchQuerySchema, type Side } from '@ledger/shared';
import { byId, summaries, withId, type ToolDeclaration } from './declare.ts';

function partyTools(vc: Side): ToolDeclaration[] {
  const plural = `${vc}s`;
  const Vc = `${vc[0]!.toUpperCase()}${vc.slice(1)}`;
  return [
    {
      name: `search_${plural}`,
      title: `Search ${plural}`,
      description: `Find ${plural} by name (case-insensitive partial match). Returns id, ${vc}number, name and address fields. Use the id as ${vc}_id on documents.`,
      area: 'contacts',
      access: 'read',
      input: partySearchQuerySchema,
      rest: { method: 'GET', path: `/arap/${vc}` },
      listKey: plural,
      summary: summaries.list(vc),
    },
    {
      name: `get_${vc}`,
      title: `Get ${vc}`,
      description: `Read one ${vc} by id.`,
      area: 'contacts',
      access: 'read',
      input: byId(`${vc} id`),
      rest: { method: 'GET', path: `/arap/${vc}/:id` },
      summary: summaries.get(vc),
    },
    {
      name: `create_${vc}`,
      title: `Create ${vc}`,
      description: `Create a ${vc}. Only name is required; ${vc}number comes from the company's sequence when omitted. Search first to avoid duplicates.`,
      area: 'contacts',
      access: 'write',
      destructive: false,
      idempotent: false,
      input: partySchemas[vc].create,
      rest: { method: 'POST', path: `/arap/${vc}` },
      summary: summaries.created(vc),
    },
    {
      name: `update_${vc}`,
      title: `Update ${vc}`,
      description: `Change fields of a ${vc}. Only the fields sent change; null clears an optional field. ${Vc} id is required.`,
      area: 'contacts',
      access: 'write',
      destructive: true,
      idempotent: true,
      input: withId(partySchemas[vc].update, `${vc} id`),
      rest: { method: 'POST', path: `/arap/${vc}/:id` },
      summary: summaries.updated(vc),
    },
  ];
}

export const contactTools: ToolDeclaration[] = [...partyTools('vendor'), ...partyTools('customer')];
