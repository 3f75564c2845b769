/**
 * Bank area (read only: the area has no write scope, docs/assistants.md): the company's own bank accounts (REST
 * `/bank/accounts`) and the imported bank transactions with IBANs and counterparties
 * (REST `/bank/transactions`). Import, booking and payment files are not offered over MCP.
 */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { summaries } from './summaries.ts';

export const bankTools: ToolDeclaration[] = [
  {
    name: 'list_bank_accounts',
    title: 'List bank accounts',
    description: "The company's own bank accounts: IBAN, QR-IBAN, currency and chart account.",
    area: 'bank',
    access: 'read',
    contract: contracts.listBankAccounts,
    listKey: 'bank_accounts',
    summary: summaries.list('bank account'),
  },
  {
    name: 'list_bank_transactions',
    title: 'List bank transactions',
    description:
      'Imported bank statement lines by account, date, status (unmatched, matched, booked), counterparty or amount.',
    area: 'bank',
    access: 'read',
    contract: contracts.listBankTransactions,
    listKey: 'bank_transactions',
    summary: summaries.list('bank transaction'),
  },
];
