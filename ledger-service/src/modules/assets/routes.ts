import { contracts } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';
import { today } from '../../domain/period.ts';
import { fiscalCalendarOf, fiscalYearOf } from '../../domain/fiscalYear.ts';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import {
  addAsset,
  assetById,
  assetSchedule,
  changeAsset,
  disposeAsset,
  listAssetShapes,
  removeAsset,
  runDepreciation,
} from './service.ts';

/** `/assets`: the fixed-asset register, depreciation runs and disposal; `/reports/assets`: the schedule. */
export const assetRoutes = [
  route(contracts.listAssets, async (req) => listAssetShapes(req)),
  route(contracts.createAsset, async (req) => addAsset(req, req.body)),
  route(contracts.runDepreciation, async (req) => runDepreciation(req, req.body.to)),
  route(contracts.getAsset, async (req) => assetById(req, idParam(req.params.id, 'asset'))),
  route(contracts.updateAsset, async (req) => changeAsset(req, idParam(req.params.id, 'asset'), req.body)),
  route(contracts.deleteAsset, async (req) => removeAsset(req, idParam(req.params.id, 'asset'))),
  route(contracts.disposeAsset, async (req) => disposeAsset(req, idParam(req.params.id, 'asset'), req.body)),
  route(contracts.assetSchedule, async (req) => {
    const to = req.query.to ?? today();
    const from = req.query.from ?? fiscalYearOf(fiscalCalendarOf(req.company.settings), to, null).start;
    if (from > to) throw ruleInvalid(`from (${from}) is after to (${to}).`, '/from');
    return assetSchedule(req, { from, to });
  }),
];
