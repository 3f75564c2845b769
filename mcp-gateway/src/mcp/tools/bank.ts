/** Bank area (read only, SPEC.md "Scopes"): the company's own bank accounts (REST `/bank/accounts`). */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { summaries } from './summaries.ts';

export const bankTools: ToolDeclaration[] = [
  {
    name: 'list_bank_accounts',
    title: 'List bank accounts',
    description:
      "The company's own bank accounts: name, IBAN, QR-IBAN, BIC, currency and the chart account each one books to. " +
      'The invoice bank account (GET company settings) is one of them.',
    area: 'bank',
    access: 'read',
    contract: contracts.listBankAccounts,
    listKey: 'bank_accounts',
    summary: summaries.list('bank account'),
  },
];
