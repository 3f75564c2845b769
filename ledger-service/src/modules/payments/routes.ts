import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { today } from '../../domain/period.ts';
import { listPayments } from './reads.ts';
import { agingReport, allocateCredit, paymentById, recordPayment, reversePayment } from './service.ts';

/** Payments and aging: `/arap/payment/{vc}`, `/arap/payments/{vc}`, `/arap/aging/{vc}` (docs/payments.md). */

const paymentId = (req: { params: { vc: string; id: string } }) => idParam(req.params.id, `${req.params.vc} payment`);

export const paymentRoutes = [
  route(contracts.createPayment, async (req) => {
    const { amount, exchangerate, ...rest } = req.body;
    // JSON numbers become decimal strings here; the service computes exactly from them
    return recordPayment(req, req.params.vc, {
      ...rest,
      amount: String(amount),
      ...(exchangerate === undefined ? {} : { exchangerate: String(exchangerate) }),
    });
  }),
  route(contracts.listPayments, async (req) => listPayments(req.tx, req.company.id, req.params.vc, req.query)),
  route(contracts.getPayment, async (req) => paymentById(req.tx, req.company.id, req.params.vc, paymentId(req))),
  route(contracts.deletePayment, async (req) => reversePayment(req, req.params.vc, paymentId(req))),
  route(contracts.allocateCreditNote, async (req) =>
    allocateCredit(req, req.params.vc, idParam(req.params.id, `${req.params.vc} credit note`), req.body),
  ),
  route(contracts.agingReport, async (req) => agingReport(req, req.params.vc, req.query.date ?? today())),
];
