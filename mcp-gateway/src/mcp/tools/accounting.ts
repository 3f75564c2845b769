/** Accounting area: chart of accounts and tax codes (REST `/system/...`). */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { countOf, plural } from './summaries.ts';

export const accountingTools: ToolDeclaration[] = [
  {
    name: 'get_chart_of_accounts',
    title: 'Chart of accounts',
    description:
      'The chart of accounts. Read it once before booking: links AP_amount / AR_amount mark the accounts for bill / ' +
      'invoice lines.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listChartAccounts,
    listKey: 'accounts',
    summary: (result) => `Chart of accounts with ${plural(countOf(result), 'account')}.`,
  },
  {
    name: 'list_tax_codes',
    title: 'Tax codes',
    description: 'Tax rates and their tax accounts: the account number is the taxAccount of document lines.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listTaxes,
    listKey: 'taxes',
    summary: (result) => `${plural(countOf(result), 'tax code')}.`,
  },
  {
    name: 'list_changes',
    title: 'What changed',
    description:
      'Events in order after a cursor (the last id seen; 0: oldest kept) of every kind of record. Filter type: ' +
      'e.g. invoice.*,payment.recorded.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listEvents,
    listKey: 'events',
    summary: (result) => `${plural(countOf(result), 'event')}.`,
  },
];
