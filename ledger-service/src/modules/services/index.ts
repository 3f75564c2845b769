/**
 * The face of modules/services: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { type ServiceRecord, findServiceForItem } from './store.ts';
export { serviceRoutes } from './routes.ts';
