/**
 * Authorization codes (RFC 6749 §4.1): issued by the consent page, spent once by the token
 * endpoint. Only the SHA-256 of a code is stored. Every state change is one conditional
 * statement, so two requests racing for the same code cannot both win, on SQLite as on
 * Postgres.
 */
import type { Knex } from 'knex';
import { ms } from '../../db/knex.ts';
import type { AuthorizationCodesRow } from '../../db/tables.ts';
import { LIFETIME } from '../lifetimes.ts';
import { hashSecret, newSecret, PREFIX } from '../secrets.ts';

/** What the person granted on the consent page, bound to the code. */
export interface CodeGrant {
  clientId: string;
  clientName: string;
  verifiedHost: string | null;
  userId: number;
  userName: string;
  userEmail: string;
  dataset: string;
  resource: string;
  scopes: string[];
  redirectUri: string;
  /** whether the authorization request carried redirect_uri (then the token request must repeat it) */
  redirectUriSent: boolean;
  codeChallenge: string;
}

/** A code as the token endpoint reads it after claiming it. */
export interface StoredCode extends CodeGrant {
  expiresAt: number;
}

export type ConsumeResult =
  | { kind: 'claimed'; code: StoredCode }
  | { kind: 'unknown' }
  /** presented before: now flagged as replayed; `connectionId` is what the first use created, if anything yet */
  | { kind: 'replayed'; clientId: string; connectionId: string | null };

function toStoredCode(row: AuthorizationCodesRow): StoredCode {
  return {
    clientId: row.client_id,
    clientName: row.client_name,
    verifiedHost: row.verified_host,
    userId: Number(row.user_id),
    userName: row.user_name,
    userEmail: row.user_email,
    dataset: row.dataset,
    resource: row.resource,
    scopes: row.scopes.split(' ').filter(Boolean),
    redirectUri: row.redirect_uri,
    redirectUriSent: Boolean(row.redirect_uri_sent),
    codeChallenge: row.code_challenge,
    expiresAt: ms(row.expires_at),
  };
}

export class CodeStore {
  constructor(private readonly db: Knex) {}

  /** Stores a new code valid for 60 s and returns it; only its hash is kept. */
  async issue(grant: CodeGrant, now: number): Promise<string> {
    const code = newSecret(PREFIX.code);
    await this.db('authorization_codes').insert({
      code_hash: hashSecret(code),
      client_id: grant.clientId,
      client_name: grant.clientName,
      verified_host: grant.verifiedHost,
      user_id: grant.userId,
      user_name: grant.userName,
      user_email: grant.userEmail,
      dataset: grant.dataset,
      resource: grant.resource,
      scopes: grant.scopes.join(' '),
      redirect_uri: grant.redirectUri,
      redirect_uri_sent: grant.redirectUriSent,
      code_challenge: grant.codeChallenge,
      created_at: now,
      expires_at: now + LIFETIME.code,
    });
    return code;
  }

  /**
   * Claims the code for this one attempt, whether the attempt then succeeds or not (single
   * use). The claim is a single conditional UPDATE … RETURNING: of two concurrent calls
   * exactly one gets the row. A code that was already claimed is flagged as replayed, so an
   * exchange still running from the first claim ends the connection it creates
   * (see `attachConnection`).
   */
  async consume(codeHash: string, now: number): Promise<ConsumeResult> {
    const [claimed] = await this.db('authorization_codes')
      .where({ code_hash: codeHash })
      .whereNull('used_at')
      .update({ used_at: now })
      .returning('*');
    if (claimed) return { kind: 'claimed', code: toStoredCode(claimed) };
    const [replayed] = await this.db('authorization_codes')
      .where({ code_hash: codeHash })
      .update({ replayed: true })
      .returning(['client_id', 'connection_id']);
    if (!replayed) return { kind: 'unknown' };
    return { kind: 'replayed', clientId: replayed.client_id, connectionId: replayed.connection_id ?? null };
  }

  /**
   * Records the connection created from a claimed code and tells whether the code has been
   * replayed meanwhile. Either the replay ran first (its flag is seen here) or it runs after
   * this statement and finds the connection id to end: one of the two always ends it.
   */
  async attachConnection(
    trx: Knex.Transaction,
    codeHash: string,
    connectionId: string,
  ): Promise<{ replayed: boolean }> {
    const [row] = await trx('authorization_codes')
      .where({ code_hash: codeHash })
      .update({ connection_id: connectionId })
      .returning(['replayed']);
    return { replayed: Boolean(row?.replayed) };
  }
}
