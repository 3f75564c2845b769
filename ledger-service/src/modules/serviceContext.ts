import type { Tx } from '../db/knex.ts';
import type { Company } from '../db/companies.ts';
import type { Actor } from '../domain/actor.ts';

/**
 * What every module service works with: the request's tenant transaction, its company and
 * who acts (for permissions and the audit log). A kernel RouteRequest is one, so a route
 * passes its request straight through; the CLI and the demo build one themselves.
 */
export interface ServiceContext {
  tx: Tx;
  company: Company;
  actor: Actor;
}
