import type { Route } from '../kernel/route.ts';
import { authRoutes } from './auth/routes.ts';
import { bankRoutes } from './bank/routes.ts';
import { bankAccountRoutes } from './bankAccounts/routes.ts';
import { bankTransactionRoutes } from './bankTransactions/routes.ts';
import { paymentFileRoutes } from './paymentFiles/routes.ts';
import { companyRoutes } from './company/routes.ts';
import { documentRoutes } from './documents/routes.ts';
import { fileRoutes } from './files/routes.ts';
import { inboxRoutes } from './inbox/routes.ts';
import { fiscalYearRoutes } from './fiscalYears/routes.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { journalRoutes } from './journal/routes.ts';
import { mailRoutes } from './mail/routes.ts';
import { partyRoutes } from './parties/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { serviceRoutes } from './services/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { transactionRoutes } from './transactions/routes.ts';

/**
 * Every handler under /client/:dataset, one module per area. The kernel pairs them with
 * the contract list (shared/src/contracts): a contract without a handler fails start-up.
 */
export const clientRoutes: Route[] = [...authRoutes, ...transactionRoutes, ...invoiceRoutes, ...documentRoutes, ...partyRoutes, ...bankAccountRoutes, ...serviceRoutes, ...systemRoutes, ...companyRoutes, ...bankRoutes, ...bankTransactionRoutes, ...paymentFileRoutes, ...mailRoutes, ...fileRoutes, ...inboxRoutes, ...paymentRoutes, ...journalRoutes, ...fiscalYearRoutes, ...reportRoutes];
