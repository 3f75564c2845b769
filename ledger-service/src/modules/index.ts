import type { Route } from '../kernel/route.ts';
import { authRoutes } from './auth/routes.ts';
import { partyRoutes } from './parties/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { transactionRoutes } from './transactions/routes.ts';
import { bankAccountRoutes } from './bankAccounts/routes.ts';
import { closeBooksRoutes } from './system/closeBooks.ts';

/** Every endpoint under /client/:dataset, by area. */
export const clientRoutes: Route[] = [...authRoutes, ...transactionRoutes, ...partyRoutes, ...bankAccountRoutes, ...systemRoutes, ...closeBooksRoutes];
