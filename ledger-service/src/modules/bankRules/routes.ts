import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addBankRule, bankRuleById, bankRules, changeBankRule, orderBankRules, removeBankRule } from './service.ts';

/** The bank rules: `GET/POST /bank/rules`, `GET/POST/DELETE /bank/rules/{id}`, `POST /bank/rules/order`. */
export const bankRuleRoutes = [
  route(contracts.listBankRules, async (req) => bankRules(req)),
  route(contracts.getBankRule, async (req) => bankRuleById(req, idParam(req.params.id, 'bank rule'))),
  route(contracts.createBankRule, async (req) => addBankRule(req, req.body)),
  route(contracts.updateBankRule, async (req) => changeBankRule(req, idParam(req.params.id, 'bank rule'), req.body)),
  route(contracts.deleteBankRule, async (req) => {
    await removeBankRule(req, idParam(req.params.id, 'bank rule'));
    return undefined;
  }),
  route(contracts.orderBankRules, async (req) => orderBankRules(req, req.body.ids)),
];
