/**
 * A request's company and actor, as authentication left them (kernel/auth.ts), their
 * authorization for one contract, and the request's transactions in the company.
 *
 * Why a module of its own: with a remembered API key (auth.ts RememberedKeys) the company
 * and actor a request starts with may be out of date, and only the database knows. The
 * request's first transaction checks the key in the message that opens it (withTenant's
 * guard), which goes with the transaction's first statement: the rest of the request may have
 * begun with the remembered tenant, but when the key changed nothing of it commits — the
 * transaction is rolled back, the request reads its key again, is authorized anew and runs
 * the rest again from the transaction stage (stages/transaction.ts). A refusal of the
 * remembered actor is never final either: the key is read again first (withTenant checks the
 * guard before a refusal made inside the transaction counts). So whatever commits, and every
 * answer, is made with the tenant as it stands, read through `company` and `actor`.
 */
import type { Context } from 'koa';
import type { Permission, Scope } from '@ledger/shared';
import type { Company } from '../db/companies.ts';
import { TenantGuardFailed, withTenant, type Db, type Tx } from '../db/knex.ts';
import { authorize } from '../domain/access.ts';
import type { Actor } from '../domain/actor.ts';
import type { TenantGuard, TenantState } from './auth.ts';

export class RequestTenant {
  private state: TenantState;

  constructor(
    private readonly ctx: Context,
    private readonly db: Db,
    private readonly permission: Permission | null,
    private readonly scope: Scope | null,
  ) {
    this.state = ctx.state.tenant as TenantState;
  }

  get company(): Company {
    return this.state.company;
  }

  get actor(): Actor {
    return this.state.actor;
  }

  /** Company and actor as they stand now, for a handler. */
  now(): { company: Company; actor: Actor } {
    return { company: this.company, actor: this.actor };
  }

  /** The contract's permission and scope for the actor, or its 403 (on the key as it stands now). */
  async authorize(): Promise<void> {
    try {
      authorize(this.actor, this.permission, this.scope);
    } catch (e) {
      const guard = this.state.guard;
      if (!guard) throw e;
      await this.reauthenticate(guard);
    }
  }

  /**
   * `fn` in one transaction of the company; the first one of a remembered key checks the key.
   * `closable`: fn's last statement may commit it (withTenant), for a caller that sends nothing
   * after fn and whose fn may run again.
   */
  async transaction<T>(fn: (tx: Tx) => Promise<T>, closable = false): Promise<T> {
    const guard = this.state.guard;
    if (!guard || guard.verified) return withTenant(this.db, this.company.id, fn, { closable });
    try {
      // the guard goes in the transaction's opening message, which may follow fn's start (withTenant)
      return await withTenant(this.db, this.company.id, fn, {
        guard: guard.sql,
        guardHeld: () => {
          guard.verified = true;
        },
        closable,
      });
    } catch (e) {
      if (!(e instanceof TenantGuardFailed)) throw e;
      await this.reauthenticate(guard);
      return withTenant(this.db, this.company.id, fn, { closable });
    }
  }

  /** The key read afresh and authorized anew: the 401/403 it gets if it no longer stands. */
  private async reauthenticate(stale: TenantGuard): Promise<void> {
    this.state = await stale.refresh();
    this.ctx.state.tenant = this.state;
    authorize(this.actor, this.permission, this.scope);
  }
}
