/**
 * Bank area (read only, SPEC.md "Scopes"): the company's own bank accounts (REST
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
    description:
      "The company's own bank accounts: name, IBAN, QR-IBAN, BIC, currency and the chart account each one books to. " +
      'The invoice bank account (GET company settings) is one of them.',
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
      'Bank transactions imported from bank statements (camt.053/camt.054, CSV): booking and value date, signed amount ' +
      '(money in positive), counterparty name and IBAN, QR/creditor reference, end-to-end id, remittance text, and status ' +
      '(unmatched; matched: booked as a payment by the matching rules; booked: by hand) with the document it paid. ' +
      'Filter by bank account, date range, status, counterparty (part of the name) or exact signed amount.',
    area: 'bank',
    access: 'read',
    contract: contracts.listBankTransactions,
    listKey: 'bank_transactions',
    summary: summaries.list('bank transaction'),
  },
];
