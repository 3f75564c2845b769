/** The company's own bank accounts (payment targets on invoices, sources of payment files). */
import { createdSchema } from '../schemas/common.ts';
import {
  bankAccountCreateSchema, bankAccountListQuerySchema, bankAccountSchema, bankAccountUpdateSchema,
} from '../schemas/company.ts';
import { contract } from './contract.ts';

export const listBankAccounts = contract({
  name: 'listBankAccounts',
  method: 'GET',
  path: '/bank/accounts',
  summary: "The company's bank accounts with IBAN, QR-IBAN, BIC, currency and chart account",
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  query: bankAccountListQuerySchema,
  response: { type: 'array', items: bankAccountSchema },
  list: true,
  errors: [],
});

export const getBankAccount = contract({
  name: 'getBankAccount',
  method: 'GET',
  path: '/bank/accounts/:id',
  summary: 'One bank account of the company',
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  response: bankAccountSchema,
  errors: [],
});

export const createBankAccount = contract({
  name: 'createBankAccount',
  method: 'POST',
  path: '/bank/accounts',
  summary: 'Add a bank account (owners and admins): IBAN mod-97, QR-IBAN range, BIC, a chart account with AR_paid/AP_paid',
  permission: 'bank.manage_accounts',
  scope: null,
  body: bankAccountCreateSchema,
  status: 201,
  response: createdSchema,
  errors: ['conflict'],
});

export const updateBankAccount = contract({
  name: 'updateBankAccount',
  method: 'POST',
  path: '/bank/accounts/:id',
  summary: 'Change a bank account (owners and admins): only the fields sent change, null clears qr_iban or bic; answers the account',
  permission: 'bank.manage_accounts',
  scope: null,
  body: bankAccountUpdateSchema,
  response: bankAccountSchema,
  errors: ['conflict'],
});
