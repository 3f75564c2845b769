/**
 * The face of modules/parties: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { addParty } from './service.ts';
export { getParty, partyIdByNumber } from './store.ts';
export { partyRoutes } from './routes.ts';
