import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addService, changeService, removeService, serviceById } from './service.ts';
import { listServices } from './store.ts';

/** The services catalogue: `/arap/services`. */
export const serviceRoutes = [
  route(contracts.listServices, async (req) => listServices(req.tx, req.company.id, req.query)),
  route(contracts.createService, async (req) => addService(req, req.body)),
  route(contracts.getService, async (req) => serviceById(req.tx, req.company.id, idParam(req.params.id, 'service'))),
  route(contracts.updateService, async (req) => changeService(req, idParam(req.params.id, 'service'), req.body)),
  route(contracts.deleteService, async (req) => removeService(req, idParam(req.params.id, 'service'))),
];
