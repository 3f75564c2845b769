import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { createPaymentFile, listPaymentFiles, paymentFileXml } from './service.ts';

/** pain.001 payment files: `/bank/payment_files…`. */
export const paymentFileRoutes = [
  route(contracts.createPaymentFile, async (req) => createPaymentFile(req, req.body)),
  route(contracts.listPaymentFiles, async (req) => listPaymentFiles(req.tx, req.company.id, req.query)),
  route(contracts.getPaymentFile, async (req) => {
    const file = await paymentFileXml(req.tx, req.company.id, idParam(req.params.id, 'payment file'));
    req.ctx.attachment(file.name, { type: 'attachment' });
    req.ctx.type = 'application/xml';
    return Buffer.from(file.xml, 'utf8');
  }),
];
