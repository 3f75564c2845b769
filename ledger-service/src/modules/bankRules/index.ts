/**
 * The face of modules/bankRules: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { bankRuleRoutes } from './routes.ts';
export { addBankRule, bankRuleById } from './service.ts';
export { listRules, taxCodeAccount } from './store.ts';
export {
  type BankRule,
  type RuleBooking,
  type RuleLine,
  type SettleCandidate,
  bookingJson,
  bookingOf,
  compactIban,
  firstRule,
  ruleMatches,
} from './rules.ts';
