/**
 * The face of modules/reports: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { accountBalance, compactBalances } from './reads.ts';
export { addDays } from './rules.ts';
export { reportRoutes } from './routes.ts';
