import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';

/** `POST /auth/validate_api`: reaching the handler means the key was accepted for the dataset. */
export const authRoutes = [route(contracts.validateApiKey, async () => ({ success: 1 }))];
