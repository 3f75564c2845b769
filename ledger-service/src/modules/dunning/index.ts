/**
 * The face of modules/dunning: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { dunningRoutes } from './routes.ts';
export { REMINDER_PDF, renderReminder } from './reminder.ts';
