/** Contacts area: vendors and customers (REST `/arap/{vc}`) and vendors' bank accounts. */
import { contracts, type Side } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { summaries } from './summaries.ts';

function partyTools(vc: Side): ToolDeclaration[] {
  const plural = `${vc}s`;
  return [
    {
      name: `search_${plural}`,
      title: `Search ${plural}`,
      description: `Find ${plural} by name (partial match); use the id as ${vc}_id on documents.`,
      area: 'contacts',
      access: 'read',
      contract: contracts.searchParties,
      side: vc,
      listKey: plural,
      rowsAs: `get_${vc}`,
      summary: summaries.list(vc),
    },
    {
      name: `get_${vc}`,
      title: `Get ${vc}`,
      description: `One ${vc} by id.`,
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
      description: `Create a ${vc} (only name is required). Search first to avoid duplicates.`,
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
      description: `Change a ${vc}: only the fields sent change; null clears one.`,
      area: 'contacts',
      access: 'write',
      destructive: true,
      idempotent: true,
      contract: contracts.updateParty,
      side: vc,
      params: { id: `${vc} id` },
      inputAs: `create_${vc}`,
      summary: summaries.updated(vc),
    },
  ];
}

/** A vendor's bank accounts: the payees of its bills (vc_bank_id) and of the bank payment files. */
const vendorBankAccountTools: ToolDeclaration[] = [
  {
    name: 'list_vendor_bank_accounts',
    title: 'Vendor bank accounts',
    description: "A vendor's bank accounts: an account's id is the vc_bank_id of its bills.",
    area: 'contacts',
    access: 'read',
    contract: contracts.listVendorBankAccounts,
    params: { id: 'vendor id' },
    listKey: 'bank_accounts',
    summary: summaries.list('bank account'),
  },
  {
    name: 'create_vendor_bank_account',
    title: 'Add vendor bank account',
    description: 'Add a bank account (IBAN) to a vendor.',
    area: 'contacts',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createVendorBankAccount,
    params: { id: 'vendor id' },
    summary: summaries.created('bank account'),
  },
  {
    name: 'update_vendor_bank_account',
    title: 'Update vendor bank account',
    description: "Change a vendor's bank account; an IBAN that a posted bill names cannot change.",
    area: 'contacts',
    access: 'write',
    destructive: true,
    idempotent: true,
    contract: contracts.updateVendorBankAccount,
    params: { id: 'vendor id', bankId: 'bank account id' },
    summary: summaries.updated('bank account'),
  },
];

export const contactTools: ToolDeclaration[] = [
  ...partyTools('vendor'),
  ...partyTools('customer'),
  ...vendorBankAccountTools,
];
