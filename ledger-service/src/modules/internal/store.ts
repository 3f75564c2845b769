import type { Db, Tx } from '../../db/knex.ts';

/** The SQL of the internal API: people and companies across tenants (no tenant transaction). */

export interface UserRow {
  id: number;
  name: string;
  email: string;
  active: boolean;
}

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return db('users').where({ id }).first('id', 'name', 'email', 'active');
}

/** The companies of an active person, with the role in each, by dataset. */
export async function activeMemberships(
  db: Db,
  userId: number,
): Promise<{ dataset: string; name: string; ai_connections_enabled: boolean; role: string }[]> {
  return db('memberships as m')
    .join('companies as c', 'c.id', 'm.company_id')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.user_id': userId, 'u.active': true })
    .orderBy('c.dataset')
    .select('c.dataset', 'c.name', 'c.ai_connections_enabled', 'm.role');
}

/** The company's AI-connections switch, its row locked until the transaction ends. */
export async function lockCompanySwitch(tx: Tx, companyId: number): Promise<boolean> {
  const row = await tx('companies').where({ id: companyId }).forUpdate().first('ai_connections_enabled');
  return Boolean(row?.ai_connections_enabled);
}

export async function writeAiConnections(tx: Tx, companyId: number, enabled: boolean): Promise<void> {
  await tx('companies').where({ id: companyId }).update({ ai_connections_enabled: enabled });
}
