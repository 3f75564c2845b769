/**
 * Bank area (docs/assistants.md, docs/bank.md "Assistants"): the company's own bank accounts
 * (REST `/bank/accounts`), the imported bank transactions with IBANs and counterparties and
 * their proposals (REST `/bank/transactions`), and with `bank:write` booking a line (a posting
 * the person confirms: amount, account and party), bank rules (create, from a booked line,
 * preview) and the reconciliation with the statement balance. Import and payment files are
 * not offered over MCP.
 */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration, ToolInput } from './declare.ts';
import { isRecord } from './isRecord.ts';
import { countOf, plural, summaries } from './summaries.ts';

const bookedAs = (result: unknown): string => {
  if (!isRecord(result)) return '';
  const document = isRecord(result.document) ? ` as payment of ${String(result.document.number)}` : '';
  const account = typeof result.account === 'string' ? ` to account ${result.account}` : '';
  return `${document}${account}`;
};

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
    description: 'Imported bank statement lines by account, date, status, counterparty or amount.',
    area: 'bank',
    access: 'read',
    contract: contracts.listBankTransactions,
    listKey: 'bank_transactions',
    summary: summaries.list('bank transaction'),
  },
  {
    name: 'list_unbooked_bank_transactions',
    title: 'List unbooked bank lines',
    description:
      'Unbooked bank lines, each with its proposals (open documents scored by amount, reference, name, date; ' +
      'the rule that applies), best first; book with book_bank_transaction { proposal }.',
    area: 'bank',
    access: 'read',
    contract: contracts.listBankTransactions,
    fixedBody: { status: 'unmatched' },
    listKey: 'bank_transactions',
    outputAs: 'list_bank_transactions',
    summary: (result) => `Found ${plural(countOf(result), 'unbooked bank line')}.`,
  },
  {
    name: 'book_bank_transaction',
    title: 'Book a bank line',
    description:
      'Book an unbooked bank line: { proposal: index } (with its document_id or rule_id: a changed proposal is ' +
      'refused), { document_id } as its payment, or { account }. The person confirms amount, account and party.',
    area: 'bank',
    access: 'write',
    destructive: true,
    idempotent: false,
    contract: contracts.bookBankTransaction,
    params: { id: 'bank transaction id' },
    summary: (result: unknown, input: ToolInput) => `Booked bank line ${String(input.id)}${bookedAs(result)}.`,
  },
  {
    name: 'create_bank_rule',
    title: 'Create a bank rule',
    description:
      "A bank rule: conditions, and an action (book to an account, or settle the party's open document within a " +
      'tolerance); auto: true books at import, else it proposes. Try it with preview_bank_rules.',
    area: 'bank',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createBankRule,
    summary: summaries.created('bank rule'),
  },
  {
    name: 'create_bank_rule_from_transaction',
    title: 'Make a bank rule from a booked line',
    description:
      'A bank rule from a line booked by hand against an account: its counterparty, direction and bank account as ' +
      'conditions, its account as action.',
    area: 'bank',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createBankRuleFromTransaction,
    params: { id: 'bank transaction id' },
    summary: summaries.created('bank rule'),
  },
  {
    name: 'preview_bank_rules',
    title: 'Preview the bank rules',
    description:
      'What the bank rules (all, or ids) would book for the unbooked lines, without booking anything: per line the ' +
      'first matching rule and its booking.',
    area: 'bank',
    access: 'write',
    destructive: false,
    idempotent: true,
    contract: contracts.previewBankRules,
    summary: (result) => `The rules would book ${plural(countOf(result), 'bank line')}.`,
    listKey: 'bookings',
  },
  {
    name: 'get_bank_reconciliation',
    title: 'Bank reconciliation',
    description:
      "A bank account's statement balance against its ledger balance on a date, the difference, the unbooked bank " +
      'lines and the ledger lines without a bank line.',
    area: 'bank',
    access: 'read',
    contract: contracts.getBankReconciliation,
    params: { id: 'bank account id' },
    summary: (result) =>
      isRecord(result)
        ? `Statement ${String(result.statement_balance)}, ledger ${String(result.ledger_balance)}, difference ` +
          `${String(result.difference)} on ${String(result.date)}.`
        : 'Reconciliation.',
  },
];
