/**
 * The face of modules/recurring: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { recurringRoutes } from './routes.ts';
export { startRecurringJob, type RecurringJob } from './job.ts';
