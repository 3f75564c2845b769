/**
 * Dimensions (`/system/dimensions`, docs/year-end.md "Dimensions"): cost centres, projects and
 * the like with their values, named by posting lines and reported by (`?dimension=`).
 */
import {
  dimensionCreatedSchema,
  dimensionCreateSchema,
  dimensionReadSchema,
  dimensionUpdateSchema,
  dimensionValueCreateSchema,
  dimensionValueReadSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listDimensions = contract({
  name: 'listDimensions',
  method: 'GET',
  path: '/system/dimensions',
  summary: 'List dimensions (cost centres, projects)',
  description:
    'The dimensions of the company (cost centres, projects, …) with their values, inactive ones included, ordered ' +
    'by code. Posting lines name them as `dimensions: { "<dimension code>": "<value code>" }`',
  example: examples.listDimensions,
  permission: 'system.chart_of_accounts',
  scope: 'accounting:read',
  response: { type: 'array', items: dimensionReadSchema },
  errors: [],
});

export const createDimension = contract({
  name: 'createDimension',
  method: 'POST',
  path: '/system/dimensions',
  summary: 'Add a dimension',
  description:
    'Add a dimension (e.g. code `cc`, name "Cost centre"), optionally with its first values; the code is unique in ' +
    'the company and never changes (409 when taken)',
  example: examples.createDimension,
  permission: 'system.add_account',
  scope: 'accounting:write',
  effect: 'none',
  body: dimensionCreateSchema,
  status: 201,
  location: '/system/dimensions/{id}',
  response: dimensionCreatedSchema,
  errors: ['conflict'],
});

export const getDimension = contract({
  name: 'getDimension',
  method: 'GET',
  path: '/system/dimensions/:id',
  summary: 'Read a dimension with its values',
  description: 'One dimension: code, name, whether it is active, and its values',
  example: examples.getDimension,
  permission: 'system.chart_of_accounts',
  scope: 'accounting:read',
  response: dimensionReadSchema,
  errors: [],
});

export const updateDimension = contract({
  name: 'updateDimension',
  method: 'POST',
  path: '/system/dimensions/:id',
  summary: 'Rename or deactivate a dimension',
  description:
    'Rename a dimension or (de)activate it; the code stays. An inactive dimension is refused on new postings, ' +
    'old postings keep it. Dimensions are never deleted',
  example: examples.updateDimension,
  permission: 'system.add_account',
  scope: 'accounting:write',
  effect: 'none',
  body: dimensionUpdateSchema,
  response: dimensionReadSchema,
  errors: [],
});

export const createDimensionValue = contract({
  name: 'createDimensionValue',
  method: 'POST',
  path: '/system/dimensions/:id/values',
  summary: 'Add a value to a dimension',
  description: 'Add a value (e.g. a cost centre) to a dimension; its code is unique in the dimension (409 when taken)',
  example: examples.createDimensionValue,
  permission: 'system.add_account',
  scope: 'accounting:write',
  effect: 'none',
  body: dimensionValueCreateSchema,
  status: 201,
  location: '/system/dimensions/:id',
  response: dimensionCreatedSchema,
  errors: ['conflict'],
});

export const updateDimensionValue = contract({
  name: 'updateDimensionValue',
  method: 'POST',
  path: '/system/dimensions/:id/values/:valueId',
  summary: 'Rename or deactivate a dimension value',
  description:
    'Rename a value or (de)activate it; the code stays. A value is never deleted: postings keep naming it, an ' +
    'inactive value is refused on new ones',
  example: examples.updateDimensionValue,
  permission: 'system.add_account',
  scope: 'accounting:write',
  effect: 'none',
  body: dimensionUpdateSchema,
  response: dimensionValueReadSchema,
  errors: [],
});
