/**
 * The internal API's writes, each in one transaction of its company: the AI-connections
 * switch with its audit entry, and the gateway's audit entries of a connection's life.
 * Domain errors only (no HTTP): kernel/errors.ts maps them.
 */
import type { BodyOf, internalContracts } from '@ledger/shared';
import { mayConnectAssistants } from '@ledger/shared';
import type { Db } from '../../db/knex.ts';
import { withTenant } from '../../db/knex.ts';
import { findMembership, type Company } from '../../db/companies.ts';
import { recordAudit } from '../../db/audit.ts';
import { forbidden } from '../../domain/errors.ts';
import { lockCompanySwitch, writeAiConnections } from './store.ts';
import { recordEvent } from '../events/index.ts';

type SwitchBody = BodyOf<typeof internalContracts.setAiConnections>;
type AuditBody = BodyOf<typeof internalContracts.auditConnection>;

/**
 * Switches AI connections on or off for an active owner or admin. The switch and its audit
 * entry commit together (or neither does); the company row is locked first, so two switches
 * at once are audited in the order they were applied and a repeat of the current state
 * writes no entry.
 */
export async function switchAiConnections(db: Db, company: Company, body: SwitchBody): Promise<boolean> {
  const { enabled, user_id: userId } = body;
  const membership = await findMembership(db, company.id, userId);
  if (!membership?.user_active || !mayConnectAssistants(membership.role))
    throw forbidden('Only an owner or admin of the company may switch AI connections.');
  await withTenant(db, company.id, async (tx) => {
    const was = await lockCompanySwitch(tx, company.id);
    if (was === enabled) return;
    await writeAiConnections(tx, company.id, enabled);
    await recordAudit(
      tx,
      company.id,
      { userId, via: { kind: 'web', id: null, label: 'AI connections' } },
      'company',
      company.id,
      enabled ? 'ai_connections_on' : 'ai_connections_off',
    );
  });
  return enabled;
}

/**
 * The gateway's record of an AI connection's life in the company's audit log: connected
 * (with the connections it replaced, each ended in the same transaction), or ended (with why).
 * The gateway keeps the connections; the audit log is where the company's people look.
 */
export async function auditConnection(db: Db, company: Company, body: AuditBody): Promise<void> {
  const { user_id: userId, action, connection_id: connectionId, client_name: clientName } = body;
  const actor = { userId, via: { kind: 'ai_connection' as const, id: connectionId, label: clientName } };
  await withTenant(db, company.id, async (tx) => {
    await recordAudit(tx, company.id, actor, 'ai_connection', null, action, {
      connection_id: connectionId,
      client_name: clientName,
      ...(body.scopes ? { scopes: body.scopes } : {}),
      ...(body.reason ? { reason: body.reason } : {}),
    });
    for (const id of body.replaced ?? []) {
      await recordAudit(tx, company.id, actor, 'ai_connection', null, 'end', {
        connection_id: id,
        client_name: clientName,
        reason: 'replaced',
        replaced_by: connectionId,
      });
      await recordEvent(tx, company.id, actor, {
        type: 'ai_connection.ended',
        resource: { type: 'ai_connection', id, path: '/system/audit' },
        snapshot: { client_name: clientName, reason: 'replaced' },
      });
    }
    // the connection's own event last: the sequence lock is held from here to the commit
    await recordEvent(tx, company.id, actor, {
      type: action === 'connect' ? 'ai_connection.created' : 'ai_connection.ended',
      resource: { type: 'ai_connection', id: connectionId, path: '/system/audit' },
      snapshot: {
        client_name: clientName,
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.reason ? { reason: body.reason } : {}),
      },
    });
  });
}
