/**
 * The face of modules/members: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 * The internal API (the gateway's app) lists and accepts a person's invitations through it.
 */
export { memberRoutes } from './routes.ts';
export { acceptInvitation, invitationsOfUser } from './service.ts';
