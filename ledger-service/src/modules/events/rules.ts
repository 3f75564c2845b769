/**
 * The pure rules of events and webhooks: who may see which events, which subscriptions an
 * event goes to, the retry schedule, what an answer of the receiver means, and the URL rules
 * of a webhook target. No SQL, no I/O: the same input gives the same answer.
 */
import {
  EVENT_PATTERNS,
  EVENT_RESOURCES,
  roleHas,
  scopeSatisfied,
  type EventResource,
  type EventType,
} from '@ledger/shared';
import type { Actor } from '../../domain/actor.ts';
import { ruleInvalid } from '../../domain/errors.ts';

/** The resource types whose events the actor may read (the permission of the resource, and the scope for AI). */
export function visibleResources(actor: Pick<Actor, 'role' | 'via'>): EventResource[] {
  return (Object.keys(EVENT_RESOURCES) as EventResource[]).filter((r) => {
    const { permission, scope } = EVENT_RESOURCES[r];
    if (!roleHas(actor.role, permission)) return false;
    if (actor.via.kind !== 'ai_connection') return true;
    return scope !== null && scopeSatisfied(actor.via.scopes, scope);
  });
}

/** Does a subscription's or a filter's pattern (a type or `area.*`) take this type? */
export function patternMatches(pattern: string, type: EventType | string): boolean {
  return pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1)));
}

/** The feed's `type` filter: comma-separated types or patterns, each one known. */
export function parseTypeFilter(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const patterns = raw.split(',').map((p) => p.trim());
  const unknown = patterns.find((p) => !EVENT_PATTERNS.includes(p));
  if (unknown !== undefined) throw ruleInvalid(`unknown event type "${unknown}"`, 'type');
  return patterns;
}

/**
 * When to try a failed delivery again: exponential backoff, 5 s doubling up to 8 h between
 * attempts (5 s, 10 s, 20 s, … ≈ 17 attempts over the first 3 days), and never after
 * `giveUpAfterSeconds` (3 days) of failing: the delivery is then failed and the subscription
 * disabled. Both numbers are options so tests can run the schedule in seconds.
 */
export interface RetrySchedule {
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  giveUpAfterSeconds: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelaySeconds: 5,
  maxDelaySeconds: 8 * 60 * 60,
  giveUpAfterSeconds: 3 * 24 * 60 * 60,
};

/** Seconds before attempt `failedAttempts + 1`, after `failedAttempts` failures (≥ 1). */
export function retryDelaySeconds(failedAttempts: number, schedule: RetrySchedule): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 30);
  return Math.min(schedule.firstDelaySeconds * 2 ** exponent, schedule.maxDelaySeconds);
}

/** The outcome of one attempt as the receiver answered it (status) or failed to (no status). */
export type AttemptOutcome = 'delivered' | 'retry' | 'rejected';

/**
 * 2xx: delivered. Timeouts, connection errors, 5xx, 408 and 429: retried. Any other answer
 * (3xx: redirects are not followed; 4xx): the receiver refused this message; it is not retried.
 */
export function classifyAttempt(statusCode: number | null): AttemptOutcome {
  if (statusCode === null) return 'retry';
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode >= 500 || statusCode === 408 || statusCode === 429) return 'retry';
  return 'rejected';
}

/**
 * What happens after a failed attempt: give up when it has been failing for the whole
 * window, else try again after the backoff delay (the last one shortened to end at the
 * window's end, so the final attempt is made when the window closes).
 */
export function afterFailure(
  failedAttempts: number,
  failingForSeconds: number,
  schedule: RetrySchedule,
): { giveUp: true } | { giveUp: false; delaySeconds: number } {
  if (failingForSeconds >= schedule.giveUpAfterSeconds) return { giveUp: true };
  const delaySeconds = Math.min(
    retryDelaySeconds(failedAttempts, schedule),
    schedule.giveUpAfterSeconds - failingForSeconds,
  );
  return { giveUp: false, delaySeconds };
}

/**
 * The URL rules of a webhook target (before any DNS lookup): https, no credentials, no
 * fragment, at most 2000 characters; http only where loopback targets are allowed.
 */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | undefined {
  if (raw.length > 2000) return 'the URL is too long';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'the URL is not valid';
  }
  if (u.protocol !== 'https:' && !(allowLoopback && u.protocol === 'http:')) return 'the URL must use https';
  if (u.username || u.password) return 'the URL must not contain credentials';
  if (u.hash) return 'the URL must not contain a fragment';
  return undefined;
}
