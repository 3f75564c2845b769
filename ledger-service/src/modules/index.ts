import type { Route } from '../kernel/route.ts';
import { assetRoutes } from './assets/index.ts';
import { authRoutes } from './auth/index.ts';
import { bankRoutes } from './bank/index.ts';
import { bankAccountRoutes } from './bankAccounts/index.ts';
import { bankTransactionRoutes } from './bankTransactions/index.ts';
import { bankRuleRoutes } from './bankRules/index.ts';
import { paymentFileRoutes } from './paymentFiles/index.ts';
import { companyRoutes } from './company/index.ts';
import { dimensionRoutes } from './dimensions/index.ts';
import { documentRoutes } from './documents/index.ts';
import { dunningRoutes, REMINDER_PDF, renderReminder } from './dunning/index.ts';
import { eventRoutes } from './events/index.ts';
import { fileRoutes } from './files/index.ts';
import { inboxRoutes } from './inbox/index.ts';
import { fiscalYearRoutes } from './fiscalYears/index.ts';
import { invoiceRoutes } from './invoices/index.ts';
import { journalRoutes } from './journal/index.ts';
import { mailRoutes } from './mail/index.ts';
import { memberRoutes } from './members/index.ts';
import type { AttachmentRenderers } from './outbox/index.ts';
import { partyRoutes } from './parties/index.ts';
import { reportRoutes } from './reports/index.ts';
import { revaluationRoutes } from './revaluation/index.ts';
import { paymentRoutes } from './payments/index.ts';
import { quoteRoutes } from './quotes/index.ts';
import { recurringRoutes } from './recurring/index.ts';
import { serviceRoutes } from './services/index.ts';
import { systemRoutes } from './system/index.ts';
import { transactionRoutes } from './transactions/index.ts';
import { vatRoutes } from './vat/index.ts';

/**
 * Every handler under /client/:dataset, one module per area. The kernel pairs them with
 * the contract list (shared/src/contracts): a contract without a handler fails start-up.
 */
export const clientRoutes: Route[] = [
  ...authRoutes,
  ...transactionRoutes,
  ...invoiceRoutes,
  ...documentRoutes,
  ...partyRoutes,
  ...bankAccountRoutes,
  ...serviceRoutes,
  ...systemRoutes,
  ...dimensionRoutes,
  ...companyRoutes,
  ...bankRoutes,
  ...bankTransactionRoutes,
  ...bankRuleRoutes,
  ...paymentFileRoutes,
  ...mailRoutes,
  ...quoteRoutes,
  ...recurringRoutes,
  ...dunningRoutes,
  ...fileRoutes,
  ...inboxRoutes,
  ...paymentRoutes,
  ...journalRoutes,
  ...fiscalYearRoutes,
  ...vatRoutes,
  ...reportRoutes,
  ...assetRoutes,
  ...revaluationRoutes,
  ...memberRoutes,
  ...eventRoutes,
];

/**
 * The files the mail sender renders when it sends a message, by the kind an attachment names
 * (modules/outbox/render.ts): the outbox comes first in the module order and cannot import them,
 * so the ledger's start hands this list to the mail worker (server.ts).
 */
export const ATTACHMENT_RENDERERS: AttachmentRenderers = { [REMINDER_PDF]: renderReminder };
