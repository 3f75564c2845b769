import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { revaluate } from './service.ts';

/** `/system/revaluation`: foreign-currency items at closing rates. */
export const revaluationRoutes = [route(contracts.revalue, async (req) => revaluate(req, req.body))];
