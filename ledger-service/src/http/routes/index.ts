import type { RouteDef } from '../route.ts';
import { authRoutes } from './auth.ts';

/** Every endpoint under /client/:dataset, by area. */
export const clientRoutes: RouteDef[] = [...authRoutes];
