/**
 * Whether an AI connection may still act: the one place that says so. The token endpoint
 * (refresh), the MCP endpoint (each request's access token), the ledger check and the
 * housekeeping sweep all ask these functions, so "ended", "expired", "idle for 90 days" and
 * "the person may no longer connect" cannot mean different things in different places.
 * Pure: the callers load the connection (and ask the ledger) and act on the verdict.
 */
import type { ConnectionRefusal } from '@ledger/shared';
import type { MemberInfo } from '../ledgerClient.ts';
import { LIFETIME } from './lifetimes.ts';

/** Why a connection ended: the ledger's refusal reasons (shared), or the gateway's own. */
export type EndReason =
  | ConnectionRefusal
  | 'disconnected_by_person'
  | 'disconnected_by_admin'
  | 'revoked'
  | 'idle'
  | 'refresh_reuse'
  | 'code_replay'
  | 'replaced';

export const END_REASON_TEXT: Record<EndReason, string> = {
  disconnected_by_person: 'disconnected by the person',
  disconnected_by_admin: 'disconnected by an owner or admin',
  revoked: 'token revoked by the app',
  ai_connections_off: 'AI connections were switched off',
  idle: 'not used for 90 days',
  role_lost: 'the person is no longer owner or admin',
  membership_lost: 'the person no longer has access to the company',
  user_deactivated: 'the account was deactivated',
  company_gone: 'the company no longer exists',
  refresh_reuse: 'an already used refresh token was presented',
  code_replay: 'the authorization code was used twice',
  replaced: 'replaced: the app was connected again',
};

/** What the gateway itself knows of a connection (its row). */
export interface ConnectionState {
  state: 'active' | 'ended';
  end_reason: EndReason | null;
  /** epoch ms */
  last_used_at: number;
}

/** The token presented for it: an access token expires (refresh it), a refresh token's end is the idle end. */
export interface PresentedToken {
  kind: 'access' | 'refresh';
  /** epoch ms */
  expires_at: number;
}

export type Liveness =
  | { status: 'live' }
  /** it ended before (final) */
  | { status: 'ended'; reason: EndReason | null }
  /** the access token expired; the connection itself may live on (refresh) */
  | { status: 'expired' }
  /** it may no longer live: the caller ends it now with this reason */
  | { status: 'ends'; reason: EndReason };

/** Last used before this (epoch ms) means idle: ended after 90 days without use. */
export function idleCutoff(now: number): number {
  return now - LIFETIME.idle;
}

/**
 * The gateway's side of the rule, in order: ended is final; an expired access token is
 * refreshed, an expired refresh token means the connection went unused for 90 days; unused
 * for 90 days ends it. The person's standing is the ledger's side (standingRefusal).
 */
export function liveness(connection: ConnectionState, now: number, token?: PresentedToken): Liveness {
  if (connection.state !== 'active') return { status: 'ended', reason: connection.end_reason };
  if (token && token.expires_at <= now) return token.kind === 'access' ? { status: 'expired' } : ended('idle');
  if (connection.last_used_at < idleCutoff(now)) return ended('idle');
  return { status: 'live' };
}

const ended = (reason: EndReason): Liveness => ({ status: 'ends', reason });

/**
 * The ledger's side: why the person may not (or no longer) connect assistants to the
 * company, from the standing the ledger reports (undefined: the company does not exist), in
 * the order the ledger checks them itself (CONNECTION_REFUSALS); undefined when they may.
 * Used for a live connection (it then ends with this reason) and before one is made (consent).
 */
export function standingRefusal(member: MemberInfo | undefined): ConnectionRefusal | undefined {
  if (!member) return 'company_gone';
  if (!member.user_exists || !member.user_active) return 'user_deactivated';
  if (!member.role) return 'membership_lost';
  if (!member.may_connect_assistants) return 'role_lost';
  if (!member.company.ai_connections_enabled) return 'ai_connections_off';
  return undefined;
}
