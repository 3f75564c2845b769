/** Accounting area: chart of accounts and tax codes (REST `/system/...`). */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { countOf, plural } from './summaries.ts';

export const accountingTools: ToolDeclaration[] = [
  {
    name: 'get_chart_of_accounts',
    title: 'Chart of accounts',
    description:
      'The company\'s chart of accounts. Accounts usable on vendor bill lines carry AP_amount in their link; payable (control) accounts carry AP; AR_amount / AR likewise for customers. It changes rarely: fetch it once.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listChartAccounts,
    listKey: 'accounts',
    summary: (result) => `Chart of accounts with ${plural(countOf(result), 'account')}.`,
  },
  {
    name: 'list_tax_codes',
    title: 'Tax codes',
    description: 'Tax rates and their tax accounts. Use the tax account number as taxAccount on document lines.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listTaxes,
    listKey: 'taxes',
    summary: (result) => `${plural(countOf(result), 'tax code')}.`,
  },
];
