/**
 * Bank automation (docs/bank.md "Bank rules", "Proposals", "Reconciliation"): the company's
 * bank rules, their preview, a rule made from a booked line, and the reconciliation of a bank
 * account with its statement balance.
 */
import { createdSchema } from '../schemas/common.ts';
import {
  bankRuleFromTransactionSchema,
  bankRuleOrderSchema,
  bankRulePreviewResultSchema,
  bankRulePreviewSchema,
  bankRuleSchema,
  bankRuleWriteSchema,
  reconcileResultSchema,
  reconcileSchema,
  reconciliationQuerySchema,
  reconciliationSchema,
  unreconcileQuerySchema,
} from '../schemas/bankRules.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listBankRules = contract({
  name: 'listBankRules',
  method: 'GET',
  path: '/bank/rules',
  summary: 'List the bank rules',
  description: 'The bank rules in the order they are tried (priority, then id): conditions, action, auto',
  example: examples.listBankRules,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  response: { type: 'array', items: bankRuleSchema },
  errors: [],
});

export const getBankRule = contract({
  name: 'getBankRule',
  method: 'GET',
  path: '/bank/rules/:id',
  summary: 'Read a bank rule',
  description: 'One bank rule: name, priority, auto, conditions and action.',
  example: examples.getBankRule,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  response: bankRuleSchema,
  errors: [],
});

export const createBankRule = contract({
  name: 'createBankRule',
  method: 'POST',
  path: '/bank/rules',
  summary: 'Create a bank rule',
  description:
    'A bank rule: conditions (direction, bank account, currency, amount range, counterparty, IBAN, text; at least ' +
    'one of counterparty, iban, text, amount) and an action (book to an account with optional tax code and party, or ' +
    "settle the party's open document within a tolerance); auto rules book at import, the others propose",
  example: examples.createBankRule,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'none',
  body: bankRuleWriteSchema,
  status: 201,
  location: '/bank/rules/{id}',
  response: createdSchema,
  errors: [],
});

export const updateBankRule = contract({
  name: 'updateBankRule',
  method: 'POST',
  path: '/bank/rules/:id',
  summary: 'Change a bank rule',
  description: 'Replace a bank rule (the whole rule is sent, as when creating it); answers the rule',
  example: examples.updateBankRule,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'none',
  body: bankRuleWriteSchema,
  response: bankRuleSchema,
  errors: [],
});

export const deleteBankRule = contract({
  name: 'deleteBankRule',
  method: 'DELETE',
  path: '/bank/rules/:id',
  summary: 'Delete a bank rule',
  description: 'Delete a bank rule; lines it booked keep their bookings and its id',
  example: examples.deleteBankRule,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'deletes',
  status: 204,
  errors: [],
});

export const orderBankRules = contract({
  name: 'orderBankRules',
  method: 'POST',
  path: '/bank/rules/order',
  summary: 'Reorder the bank rules',
  description: 'Set the order the rules are tried in: { ids } names every rule once; answers the rules in that order',
  example: examples.orderBankRules,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'none',
  body: bankRuleOrderSchema,
  response: { type: 'array', items: bankRuleSchema },
  errors: [],
});

export const previewBankRules = contract({
  name: 'previewBankRules',
  method: 'POST',
  path: '/bank/rules/preview',
  summary: 'Preview what the bank rules would book',
  description:
    'What the rules (all, or { ids }) would do to the unmatched bank lines, without booking: per line the first ' +
    'matching rule and its booking',
  example: examples.previewBankRules,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  effect: 'none',
  body: bankRulePreviewSchema,
  response: bankRulePreviewResultSchema,
  errors: [],
});

export const createBankRuleFromTransaction = contract({
  name: 'createBankRuleFromTransaction',
  method: 'POST',
  path: '/bank/transactions/:id/rule',
  summary: 'Make a bank rule from a booked line',
  description:
    'A rule from a line booked by hand against an account: its counterparty (else IBAN, else text), direction and ' +
    'bank account as conditions, its account as action; added last',
  example: examples.createBankRuleFromTransaction,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'none',
  body: bankRuleFromTransactionSchema,
  status: 201,
  location: '/bank/rules/{id}',
  response: createdSchema,
  errors: ['conflict'],
});

export const getBankReconciliation = contract({
  name: 'getBankReconciliation',
  method: 'GET',
  path: '/bank/accounts/:id/reconciliation',
  summary: 'Reconciliation of a bank account',
  description:
    "The statement balance (last camt.053 closing balance up to the date), the ledger balance of the bank's chart " +
    'account, their difference, the unbooked bank lines and the ledger lines with no bank line',
  example: examples.getBankReconciliation,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  query: reconciliationQuerySchema,
  response: reconciliationSchema,
  errors: [],
});

export const reconcileBankAccount = contract({
  name: 'reconcileBankAccount',
  method: 'POST',
  path: '/bank/accounts/:id/reconcile',
  summary: 'Reconcile a bank account to a date',
  description:
    'Marks the booked bank lines up to the date reconciled when statement_balance equals the ledger balance; 409 ' +
    'naming the difference and the unbooked lines when not',
  example: examples.reconcileBankAccount,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'none',
  body: reconcileSchema,
  response: reconcileResultSchema,
  errors: ['conflict'],
});

export const unreconcileBankAccount = contract({
  name: 'unreconcileBankAccount',
  method: 'DELETE',
  path: '/bank/accounts/:id/reconciliation',
  summary: 'Undo reconciliations of a bank account',
  description:
    'Undo the reconciliations of the date given and later: their bank lines are no longer reconciled, so their ' +
    'payments and journal entries can be reversed again',
  example: examples.unreconcileBankAccount,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'none',
  query: unreconcileQuerySchema,
  status: 204,
  errors: [],
});
