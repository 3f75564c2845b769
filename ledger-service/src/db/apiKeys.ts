import { preparedAs, type Db } from './knex.ts';
import type { Company } from './companies.ts';
import type { Role } from '@ledger/shared';
import type { ListPage } from './listOrder.ts';
import type { ApiKeysRow } from './tables.ts';
import { hashApiKey, newApiKey, sameHash } from '../domain/secrets.ts';

/** An API key's row (db/tables.ts) with what authentication reads beside it. */
export type ApiKeyRow = ApiKeysRow & {
  user_active: boolean;
  /** the key's company */
  company: Company;
  /** the user's membership in that company; null when it was removed */
  role: Role | null;
  approval_limit: string | null;
  /**
   * The row versions (`xmin`) of the key, its user, its company and the membership: any
   * change to what authentication read (a key deleted, a user deactivated, a role changed,
   * the company changed) gives another value. See `keyUnchangedSql`.
   */
  version: string;
};

/** The versions of the rows authentication reads, in one text (FIND_KEY_SQL, keyUnchangedSql). */
const KEY_VERSION = `k.xmin::text || '.' || u.xmin::text || '.' || c.xmin::text || '.' || coalesce(m.xmin::text, '-')`;
const KEY_JOINS = `from api_keys k
  join users u on u.id = k.user_id
  join companies c on c.id = k.company_id
  left join memberships m on m.company_id = k.company_id and m.user_id = k.user_id`;

/**
 * The key with everything authentication needs (user, company, membership) in one query:
 * this runs before every API-key request, so it is prepared (`preparedAs`), with its columns
 * named rather than `k.*`.
 */
const FIND_KEY_SQL = `select k.id, k.company_id, k.user_id, k.label, k.key_hash, k.key_prefix, k.created_at,
       k.last_used_at, u.active as user_active, row_to_json(c.*) as company, m.role, m.approval_limit,
       ${KEY_VERSION} as version
  ${KEY_JOINS}
 where k.key_hash = ?
 limit 1`;

/**
 * One statement, for the first message of a tenant transaction (db/knex.ts `withTenant`'s
 * guard): one row with `unchanged` true while the key and everything authentication read
 * with it are still as they were when `key` was read. The text holds only the key's integer
 * id and its version (digits and dots), checked here, so it is safe to send inline.
 */
export function keyUnchangedSql(key: Pick<ApiKeyRow, 'id' | 'version'>): string {
  if (!Number.isSafeInteger(key.id) || !/^[0-9.-]+$/.test(key.version)) {
    throw new Error('keyUnchangedSql: unexpected key id or version');
  }
  const where = `k.id = ${key.id} and ${KEY_VERSION} = '${key.version}'`;
  return `select exists (select 1 ${KEY_JOINS} where ${where}) as unchanged`;
}

/** The stored hash of what looks like an API key; undefined for anything else. */
export function apiKeyHashOf(token: string): string | undefined {
  return /^ak_[A-Za-z0-9_-]{43,}$/.test(token) ? hashApiKey(token) : undefined;
}

export async function findApiKeyByHash(db: Db, hash: string): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.raw<{ rows: ApiKeyRow[] }>(FIND_KEY_SQL, [hash]).options(preparedAs(db, FIND_KEY_SQL));
  const row = rows[0];
  // the index lookup found it by hash already; the constant-time check guards the comparison itself
  return row && sameHash(row.key_hash, hash) ? row : undefined;
}

/** Whether the key's last_used_at is due to be written: at most once a minute per key, to keep reads cheap. */
export function apiKeyTouchDue(key: Pick<ApiKeyRow, 'last_used_at'>): boolean {
  return !key.last_used_at || Date.now() - new Date(key.last_used_at).getTime() >= 60_000;
}

export async function touchApiKey(db: Db, key: ApiKeyRow): Promise<void> {
  if (!apiKeyTouchDue(key)) return;
  await db('api_keys').where('id', key.id).update({ last_used_at: db.fn.now() });
}

export async function createApiKey(db: Db, companyId: number, userId: number, label: string) {
  const key = newApiKey();
  const [row] = await db('api_keys')
    .insert({ company_id: companyId, user_id: userId, label, key_hash: hashApiKey(key), key_prefix: key.slice(0, 7) })
    .returning(['id', 'label', 'key_prefix', 'created_at']);
  return {
    id: row.id as number,
    label: row.label as string,
    prefix: row.key_prefix as string,
    created_at: row.created_at as Date,
    key,
  };
}

export interface ApiKeyListEntry {
  id: number;
  label: string;
  prefix: string;
  /** the user's e-mail */
  user: string;
  created_at: Date;
  last_used_at: Date | null;
}

/**
 * Never returns keys or hashes. Oldest first; with a page (GET /system/api_keys) only its
 * rows, without one (the CLI's `key list`) all of them.
 */
export async function listApiKeys(
  db: Db,
  companyId: number,
  page?: { limit: number; offset: number },
): Promise<ApiKeyListEntry[]> {
  const query = db('api_keys as k')
    .join('users as u', 'u.id', 'k.user_id')
    .where('k.company_id', companyId)
    .orderBy('k.id')
    .select('k.id', 'k.label', 'k.key_prefix as prefix', 'u.email as user', 'k.created_at', 'k.last_used_at');
  if (page) query.limit(page.limit).offset(page.offset);
  return query as Promise<ApiKeyListEntry[]>;
}

/** One page of the company's keys and how many it has (the list's X-Total-Count). */
export async function apiKeyPage(
  db: Db,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<ListPage<ApiKeyListEntry>> {
  const counted = await db('api_keys').where('company_id', companyId).count({ n: '*' }).first();
  return { rows: await listApiKeys(db, companyId, page), total: Number(counted?.n ?? 0) };
}

export async function deleteApiKey(db: Db, companyId: number, id: number): Promise<boolean> {
  return (await db('api_keys').where({ company_id: companyId, id }).delete()) > 0;
}
