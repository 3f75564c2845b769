/** Contacts area: vendors and customers (REST `/arap/{vc}`). */
import { contracts, type Side } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { summaries } from './summaries.ts';

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
      contract: contracts.searchParties,
      side: vc,
      listKey: plural,
      summary: summaries.list(vc),
    },
    {
      name: `get_${vc}`,
      title: `Get ${vc}`,
      description: `Read one ${vc} by id.`,
      area: 'contacts',
      access: 'read',
      contract: contracts.getParty,
      side: vc,
      params: { id: `${vc} id` },
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
      contract: contracts.createParty,
      side: vc,
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
      contract: contracts.updateParty,
      side: vc,
      params: { id: `${vc} id` },
      summary: summaries.updated(vc),
    },
  ];
}

export const contactTools: ToolDeclaration[] = [...partyTools('vendor'), ...partyTools('customer')];
