import type { Route } from '../route.ts';
import { authRoutes } from './auth.ts';
import { partyRoutes } from './parties.ts';
import { systemRoutes } from './system.ts';
import { transactionRoutes } from './transactions.ts';
import { bankAccountRoutes } from './bankAccounts.ts';
import { closeBooksRoutes } from './closeBooks.ts';

/** Every endpoint under /client/:dataset, by area. */
export const clientRoutes: Route[] = [...authRoutes, ...transactionRoutes, ...partyRoutes, ...bankAccountRoutes, ...systemRoutes, ...closeBooksRoutes];
