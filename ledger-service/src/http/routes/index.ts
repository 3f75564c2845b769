import type { RouteDef } from '../route.ts';
import { authRoutes } from './auth.ts';
import { partyRoutes } from './parties.ts';
import { systemRoutes } from './system.ts';

/** Every endpoint under /client/:dataset, by area. */
export const clientRoutes: RouteDef[] = [...authRoutes, ...partyRoutes, ...systemRoutes];
