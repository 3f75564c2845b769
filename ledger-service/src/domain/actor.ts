import type { AssistantConfirmation, Role } from '@ledger/shared';

/** Who is acting, and through what: recorded in every audit entry. */
export type Via =
  | { kind: 'api_key'; id: number; label: string }
  | {
      kind: 'ai_connection';
      id: string;
      label: string;
      scopes: string[];
      /** how the person confirmed this request's consequential write (X-Assistant-Confirmation), if it is one */
      confirmation?: AssistantConfirmation;
    }
  | { kind: 'cli'; id: null; label: 'CLI' }
  /** a person on the gateway's pages (e.g. System → Management → AI connections) */
  | { kind: 'web'; id: null; label: string }
  /** the signed-in person on the gateway's app pages, through an app service credential */
  | { kind: 'app'; id: null; label: 'app' }
  /** the ledger's own background jobs acting for a member (recurring invoices, modules/recurring/job.ts) */
  | { kind: 'system'; id: null; label: string };

export interface Actor {
  userId: number;
  role: Role;
  /** base-currency limit for posting; null = unlimited */
  approvalLimit: string | null;
  via: Via;
}
