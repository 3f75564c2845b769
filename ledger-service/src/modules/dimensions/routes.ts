import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addDimension, addDimensionValue, changeDimension, changeDimensionValue, dimensionById } from './service.ts';
import { listDimensions } from './store.ts';

/** `/system/dimensions`: cost centres, projects and their values. */
export const dimensionRoutes = [
  route(contracts.listDimensions, async (req) => listDimensions(req.tx, req.company.id)),
  route(contracts.createDimension, async (req) => addDimension(req, req.body)),
  route(contracts.getDimension, async (req) => dimensionById(req, idParam(req.params.id, 'dimension'))),
  route(contracts.updateDimension, async (req) => changeDimension(req, idParam(req.params.id, 'dimension'), req.body)),
  route(contracts.createDimensionValue, async (req) =>
    addDimensionValue(req, idParam(req.params.id, 'dimension'), req.body),
  ),
  route(contracts.updateDimensionValue, async (req) =>
    changeDimensionValue(
      req,
      idParam(req.params.id, 'dimension'),
      idParam(req.params.valueId, 'dimension value'),
      req.body,
    ),
  ),
];
