/**
 * The face of modules/files: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { documentUrlBase } from './routes.ts';
export type { StorageKind } from './storage.ts';
export { documentBytes, attachFiles, putDocument } from './store.ts';
export { fileRoutes } from './routes.ts';
