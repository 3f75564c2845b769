import { contracts } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';
import { route, type RouteRequest } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import type { InvoiceContext } from '../invoices/index.ts';
import { emailInvoice, sendReminder } from './invoiceMail.ts';

/** E-mail of customer invoices and reminders (docs/invoices.md "E-mail and reminders"). */

export function customerInvoiceContext(req: Pick<RouteRequest, 'ctx' | 'tx' | 'company' | 'actor'>): InvoiceContext {
  return {
    tx: req.tx,
    company: req.company,
    actor: req.actor,
    vc: 'customer',
    read: {
      fileUrlBase: `${req.ctx.protocol}://${req.ctx.host}/client/${req.company.dataset}/arap/invoice/customer`,
      baseCurrency: req.company.base_currency,
    },
  };
}

/** The queue to send from, and the sender address when the company has no e-mail. */
export function mailSettings(req: Pick<RouteRequest, 'ctx'>) {
  return mailSettingsOf(req.ctx.config as LedgerConfig);
}

/** The same from the configuration, for senders outside a request (the recurring-invoice job). */
export function mailSettingsOf(config: Pick<LedgerConfig, 'mailQueue' | 'publicUrl'>) {
  return { queue: config.mailQueue, fallbackSender: `noreply@${new URL(config.publicUrl).hostname}` };
}

export const mailRoutes = [
  route(contracts.emailInvoice, async (req) => {
    const queued = await emailInvoice(
      customerInvoiceContext(req),
      mailSettings(req),
      idParam(req.params.id, 'customer invoice'),
      req.body,
    );
    return { id: queued.id, message_id: queued.messageId, status: 'queued' as const };
  }),
  route(contracts.sendReminder, async (req) => {
    const queued = await sendReminder(
      customerInvoiceContext(req),
      mailSettings(req),
      idParam(req.params.id, 'customer invoice'),
      req.body,
    );
    return {
      id: queued.id,
      message_id: queued.messageId,
      status: 'queued' as const,
      level: queued.level,
      fee_transaction_id: queued.feeTransactionId,
    };
  }),
];
