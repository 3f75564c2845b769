/**
 * The face of modules/dimensions: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { dimensionRoutes } from './routes.ts';
export { checkDimensions, type DimensionCatalogue, type Dimensions, namesDimensions } from './rules.ts';
export { dimensionByCode, loadDimensionCatalogue } from './store.ts';
