import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { changeCompanyProfile } from './service.ts';
import { getCompanyProfile } from './store.ts';

/** `GET/POST /system/company`: the company's settings. */
export const companyRoutes = [
  route(contracts.getCompany, async (req) => getCompanyProfile(req.tx, req.company.id)),
  route(contracts.updateCompany, async (req) => changeCompanyProfile(req, req.body)),
];
