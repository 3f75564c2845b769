/**
 * The face of modules/bank: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export {
  type BankAccount,
  type BankAccountWithChart,
  findBankAccount,
  findBankAccountByIban,
  findBankAccountWithChart,
  findChartAccount,
  type BankLineBooking,
} from './store.ts';
export { refuseIfReconciled } from './service.ts';
export { bankRoutes } from './routes.ts';
