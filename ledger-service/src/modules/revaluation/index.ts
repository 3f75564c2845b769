/**
 * The face of modules/revaluation: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { revaluationRoutes } from './routes.ts';
