/**
 * The face of modules/vat: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { vatRoutes } from './routes.ts';
