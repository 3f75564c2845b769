/**
 * The face of modules/company: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { BOOK_ACCOUNT_FIELDS, BOOK_ACCOUNT_RULES } from './rules.ts';
export {
  type CompanyProfile,
  firstLineDate,
  getCompanyProfile,
  getInvoiceBankAccount,
  vatSettingsOf,
} from './store.ts';
export { companyRoutes } from './routes.ts';
