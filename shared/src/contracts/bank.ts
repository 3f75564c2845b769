/** The company's own bank accounts (payment targets on invoices, sources of payment files). */
import { createdSchema } from '../schemas/common.ts';
import {
  bankAccountCreateSchema,
  bankAccountListQuerySchema,
  bankAccountSchema,
  bankAccountUpdateSchema,
} from '../schemas/company.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listBankAccounts = contract({
  name: 'listBankAccounts',
  method: 'GET',
  path: '/bank/accounts',
  summary: "List the company's bank accounts",
  description: "The company's bank accounts with IBAN, QR-IBAN, BIC, currency and chart account",
  example: examples.listBankAccounts,
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
  summary: 'Read a bank account',
  description: 'One bank account of the company: name, IBAN, QR-IBAN, BIC, currency and the chart account it books to.',
  example: examples.getBankAccount,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  response: bankAccountSchema,
  errors: [],
});

export const createBankAccount = contract({
  name: 'createBankAccount',
  method: 'POST',
  path: '/bank/accounts',
  summary: 'Add a bank account',
  description:
    'Add a bank account (owners and admins): IBAN mod-97, QR-IBAN range, BIC, a chart account with AR_paid/AP_paid',
  example: examples.createBankAccount,
  permission: 'bank.manage_accounts',
  scope: null,
  body: bankAccountCreateSchema,
  status: 201,
  location: '/bank/accounts/{id}',
  response: createdSchema,
  errors: ['conflict'],
});

export const updateBankAccount = contract({
  name: 'updateBankAccount',
  method: 'POST',
  path: '/bank/accounts/:id',
  summary: 'Change a bank account',
  description:
    'Change a bank account (owners and admins): only the fields sent change, null clears qr_iban or bic; answers the ' +
    'account',
  example: examples.updateBankAccount,
  permission: 'bank.manage_accounts',
  scope: null,
  body: bankAccountUpdateSchema,
  response: bankAccountSchema,
  errors: ['conflict'],
});

export const deleteBankAccount = contract({
  name: 'deleteBankAccount',
  method: 'DELETE',
  path: '/bank/accounts/:id',
  summary: 'Delete an unused bank account',
  description:
    'Delete a bank account (owners and admins) that nothing uses: no imported transactions, payment files, ' +
    "statements, bank rules, nor the company's invoice bank account; 409 naming what uses it",
  example: examples.deleteBankAccount,
  permission: 'bank.manage_accounts',
  scope: null,
  status: 204,
  errors: ['conflict'],
});
