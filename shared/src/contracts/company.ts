/** The company's own settings: legal name, address, VAT number, invoice bank account, book accounts. */
import { companySchema, companyUpdateSchema } from '../schemas/company.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const getCompany = contract({
  name: 'getCompany',
  method: 'GET',
  path: '/system/company',
  summary: 'Read the company settings',
  description:
    "The company's legal name, address, VAT number, e-mail, invoice bank account and the accounts the books use",
  example: examples.getCompany,
  permission: null,
  scope: 'accounting:read',
  response: companySchema,
  errors: [],
});

export const updateCompany = contract({
  name: 'updateCompany',
  method: 'POST',
  path: '/system/company',
  summary: 'Change the company settings',
  description:
    'Change company settings (owners and admins): only the fields sent change, null clears an optional one. ' +
    'Swiss UID checked for CH companies; accounts must exist in the chart; answers the settings',
  example: examples.updateCompany,
  permission: 'system.company',
  scope: null,
  body: companyUpdateSchema,
  response: companySchema,
  errors: [],
});
