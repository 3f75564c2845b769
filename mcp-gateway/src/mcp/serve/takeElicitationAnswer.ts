/**
 * Serving stage: a POST that is the client's answer to a question of a waiting 2025-era call
 * (legacyConfirm.ts) goes to that call and is answered 202 here.
 */
import { McpAnswer } from '../answer.ts';
import type { ServeEnv, Serving } from './state.ts';

export function takeElicitationAnswer({ pendingElicitations }: ServeEnv, state: Serving): Serving | McpAnswer {
  return pendingElicitations.answer(state.connection.id, state.body) ? McpAnswer.empty(202) : state;
}
