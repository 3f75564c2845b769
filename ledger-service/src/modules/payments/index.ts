/**
 * The face of modules/payments: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { type PaymentInput, recordPayment, recordPayments } from './service.ts';
export { paymentRoutes } from './routes.ts';
