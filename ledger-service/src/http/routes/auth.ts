import type { RouteDef } from '../route.ts';

export const authRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/auth/validate_api',
    handler: async () => ({ success: 1 }),
  },
];
