/** Vendors and customers (`/arap/{vc}`) and vendor bank accounts. */
import {
  bankAccountCreateSchema, bankAccountReadSchema, createdSchema, partyCreatedSchema, partySchemas, partySearchQuerySchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';

const readPermission = { vendor: 'vendors.vendors', customer: 'customers.customers' } as const;
const writePermission = { vendor: 'vendors.add_vendor', customer: 'customers.add_customer' } as const;

export const searchParties = contract({
  name: 'searchParties',
  method: 'GET',
  path: '/arap/:vc',
  summary: 'Search vendors or customers by name (case-insensitive, partial); ordered by name unless `sort` says otherwise',
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
  summary: 'Create a vendor or customer; the number comes from the company sequence when omitted',
  permission: writePermission,
  scope: 'contacts:write',
  body: { vendor: partySchemas.vendor.create, customer: partySchemas.customer.create },
  status: 201,
  response: partyCreatedSchema,
  errors: ['invalid_currency', 'conflict'],
});

export const getParty = contract({
  name: 'getParty',
  method: 'GET',
  path: '/arap/:vc/:id',
  summary: 'One vendor or customer',
  permission: readPermission,
  scope: 'contacts:read',
  response: { vendor: partySchemas.vendor.read, customer: partySchemas.customer.read },
  errors: [],
});

export const updateParty = contract({
  name: 'updateParty',
  method: 'POST',
  path: '/arap/:vc/:id',
  summary: 'Update a vendor or customer: only the fields sent change; null clears an optional field',
  permission: writePermission,
  scope: 'contacts:write',
  body: { vendor: partySchemas.vendor.update, customer: partySchemas.customer.update },
  response: { vendor: partySchemas.vendor.read, customer: partySchemas.customer.read },
  errors: ['invalid_currency', 'conflict'],
});

export const deleteParty = contract({
  name: 'deleteParty',
  method: 'DELETE',
  path: '/arap/:vc/:id',
  summary: 'Delete a vendor or customer that no document refers to (409 otherwise)',
  permission: writePermission,
  scope: 'contacts:write',
  status: 204,
  errors: ['conflict'],
});

export const listVendorBankAccounts = contract({
  name: 'listVendorBankAccounts',
  method: 'GET',
  path: '/arap/vendor/:id/bank_accounts',
  summary: "A vendor's bank accounts",
  permission: 'vendors.vendors',
  scope: 'contacts:read',
  response: { type: 'array', items: bankAccountReadSchema },
  list: true,
  errors: [],
});

export const createVendorBankAccount = contract({
  name: 'createVendorBankAccount',
  method: 'POST',
  path: '/arap/vendor/:id/bank_accounts',
  summary: 'Add a bank account to a vendor (IBAN checked with mod-97, BIC by format)',
  permission: 'vendors.add_vendor',
  scope: 'contacts:write',
  body: bankAccountCreateSchema,
  status: 201,
  response: createdSchema,
  errors: [],
});
