/** Vendors and customers (`/arap/{vc}`) and vendor bank accounts (the payees of bills; customers have none). */
import {
  bankAccountCreateSchema,
  bankAccountReadSchema,
  createdSchema,
  pageQuerySchema,
  partyCreatedSchema,
  partySchemas,
  partySearchQuerySchema,
  vendorBankAccountUpdateSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

const readPermission = { vendor: 'vendors.vendors', customer: 'customers.customers' } as const;
const writePermission = { vendor: 'vendors.add_vendor', customer: 'customers.add_customer' } as const;

export const searchParties = contract({
  name: 'searchParties',
  method: 'GET',
  path: '/arap/:vc',
  summary: { vendor: 'Search vendors', customer: 'Search customers' },
  description:
    'Search vendors or customers by name (case-insensitive, partial); ordered by name unless `sort` says otherwise',
  example: examples.searchParties,
  permission: readPermission,
  scope: 'contacts:read',
  query: partySearchQuerySchema,
  response: {
    vendor: { type: 'array', items: partySchemas.vendor.read },
    customer: { type: 'array', items: partySchemas.customer.read },
  },
  list: true,
  errors: [],
});

export const createParty = contract({
  name: 'createParty',
  method: 'POST',
  path: '/arap/:vc',
  summary: { vendor: 'Create a vendor', customer: 'Create a customer' },
  description: 'Create a vendor or customer; the number comes from the company sequence when omitted',
  example: examples.createParty,
  permission: writePermission,
  scope: 'contacts:write',
  effect: 'none',
  body: { vendor: partySchemas.vendor.create, customer: partySchemas.customer.create },
  status: 201,
  location: '/arap/:vc/{id}',
  response: partyCreatedSchema,
  errors: ['invalid_currency', 'conflict'],
});

export const getParty = contract({
  name: 'getParty',
  method: 'GET',
  path: '/arap/:vc/:id',
  summary: { vendor: 'Read a vendor', customer: 'Read a customer' },
  description: 'One vendor or customer by id: every field, null where not set; `currency` is the `curr` written.',
  example: examples.getParty,
  permission: readPermission,
  scope: 'contacts:read',
  response: { vendor: partySchemas.vendor.read, customer: partySchemas.customer.read },
  errors: [],
});

export const updateParty = contract({
  name: 'updateParty',
  method: 'POST',
  path: '/arap/:vc/:id',
  summary: { vendor: 'Change a vendor', customer: 'Change a customer' },
  description: 'Update a vendor or customer: only the fields sent change; null clears an optional field',
  example: examples.updateParty,
  permission: writePermission,
  scope: 'contacts:write',
  effect: 'none',
  body: { vendor: partySchemas.vendor.update, customer: partySchemas.customer.update },
  response: { vendor: partySchemas.vendor.read, customer: partySchemas.customer.read },
  errors: ['invalid_currency', 'conflict'],
});

export const deleteParty = contract({
  name: 'deleteParty',
  method: 'DELETE',
  path: '/arap/:vc/:id',
  summary: { vendor: 'Delete a vendor', customer: 'Delete a customer' },
  description: 'Delete a vendor or customer that no document refers to (409 otherwise)',
  example: examples.deleteParty,
  permission: writePermission,
  scope: 'contacts:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});

export const listVendorBankAccounts = contract({
  name: 'listVendorBankAccounts',
  method: 'GET',
  path: '/arap/vendor/:id/bank_accounts',
  summary: "List a vendor's bank accounts",
  description: "A vendor's bank accounts, oldest first",
  example: examples.listVendorBankAccounts,
  permission: 'vendors.vendors',
  scope: 'contacts:read',
  query: pageQuerySchema,
  response: { type: 'array', items: bankAccountReadSchema },
  list: true,
  errors: [],
});

export const createVendorBankAccount = contract({
  name: 'createVendorBankAccount',
  method: 'POST',
  path: '/arap/vendor/:id/bank_accounts',
  summary: 'Add a bank account to a vendor',
  description: 'Add a bank account to a vendor (IBAN checked with mod-97, BIC by format)',
  example: examples.createVendorBankAccount,
  permission: 'vendors.add_vendor',
  scope: 'contacts:write',
  effect: 'none',
  body: bankAccountCreateSchema,
  status: 201,
  location: '/arap/vendor/:id/bank_accounts/{id}',
  response: createdSchema,
  errors: [],
});

export const updateVendorBankAccount = contract({
  name: 'updateVendorBankAccount',
  method: 'POST',
  path: '/arap/vendor/:id/bank_accounts/:bankId',
  summary: "Change a vendor's bank account",
  description:
    "Change a vendor's bank account: only the fields sent change, null clears bic, name or description. The IBAN " +
    'cannot change while a posted or reversed document names the account (409: add a new bank account instead); ' +
    'drafts follow the change',
  example: examples.updateVendorBankAccount,
  permission: 'vendors.add_vendor',
  scope: 'contacts:write',
  effect: 'none',
  body: vendorBankAccountUpdateSchema,
  response: bankAccountReadSchema,
  errors: ['conflict'],
});

export const deleteVendorBankAccount = contract({
  name: 'deleteVendorBankAccount',
  method: 'DELETE',
  path: '/arap/vendor/:id/bank_accounts/:bankId',
  summary: "Delete a vendor's bank account",
  description: "Delete a vendor's bank account that no document (draft, posted or reversed) names; 409 otherwise",
  example: examples.deleteVendorBankAccount,
  permission: 'vendors.add_vendor',
  scope: 'contacts:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});
