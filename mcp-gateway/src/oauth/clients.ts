/**
 * OAuth clients: Client ID Metadata Documents (client_id is an https URL) and clients
 * registered with RFC 7591 dynamic registration (client_id `dcr_…`). All are public.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/knex.ts';
import { type CimdFetcher, ClientMetadataError, isMetadataUrl } from './cimd.ts';
import { redirectUriProblem, verifiedHostOf } from './redirectUris.ts';

export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  /** shown as "Verified domain"; undefined: the Unverified app warning */
  verifiedHost: string | undefined;
  kind: 'metadata_document' | 'registered';
}

export class ClientLookupError extends Error {}

export class RegistrationError extends Error {
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    message: string,
  ) {
    super(message);
  }
}

const MAX_REGISTERED_REDIRECT_URIS = 20;
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

export class ClientRegistry {
  constructor(
    private readonly db: Db,
    private readonly cimd: CimdFetcher,
    private readonly now: () => number,
  ) {}

  /** The client, or a ClientLookupError saying why it cannot be used. */
  async resolve(clientId: string): Promise<OAuthClient> {
    if (isMetadataUrl(clientId)) {
      try {
        const doc = await this.cimd.get(clientId);
        return {
          clientId,
          clientName: doc.client_name,
          redirectUris: doc.redirect_uris,
          verifiedHost: new URL(clientId).hostname,
          kind: 'metadata_document',
        };
      } catch (err) {
        if (err instanceof ClientMetadataError) throw new ClientLookupError(err.message);
        throw err;
      }
    }
    if (!/^dcr_[A-Za-z0-9_-]{22}$/.test(clientId)) throw new ClientLookupError('unknown client_id');
    const row = await this.db('oauth_clients').where({ client_id: clientId }).first();
    if (!row) throw new ClientLookupError('unknown client_id');
    return {
      clientId,
      clientName: row.client_name,
      redirectUris: JSON.parse(row.redirect_uris) as string[],
      verifiedHost: row.verified_host ?? undefined,
      kind: 'registered',
    };
  }

  /** RFC 7591 §3.1: validates the metadata, stores the client, returns the registration response. */
  async register(input: unknown): Promise<Record<string, unknown>> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new RegistrationError('invalid_client_metadata', 'the body must be a JSON object of client metadata');
    }
    const m = input as Record<string, unknown>;
    const uris = m.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0)
      throw new RegistrationError('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
    if (uris.length > MAX_REGISTERED_REDIRECT_URIS) {
      throw new RegistrationError(
        'invalid_redirect_uri',
        `at most ${MAX_REGISTERED_REDIRECT_URIS} redirect_uris may be registered`,
      );
    }
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new RegistrationError('invalid_redirect_uri', problem);
    }
    const redirectUris = [...new Set(uris as string[])];
    const name = m.client_name ?? 'Unnamed app';
    if (typeof name !== 'string' || name.trim().length === 0 || name.length > 200) {
      throw new RegistrationError('invalid_client_metadata', 'client_name must be a string of 1 to 200 characters');
    }
    const method = m.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') {
      throw new RegistrationError(
        'invalid_client_metadata',
        'only public clients are supported: token_endpoint_auth_method must be "none"',
      );
    }
    const grantTypes = m.grant_types ?? ['authorization_code', 'refresh_token'];
    if (
      !Array.isArray(grantTypes) ||
      grantTypes.length === 0 ||
      !grantTypes.every((g) => GRANT_TYPES.includes(g as string))
    ) {
      throw new RegistrationError(
        'invalid_client_metadata',
        'grant_types may contain only authorization_code and refresh_token',
      );
    }
    const responseTypes = m.response_types ?? ['code'];
    if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== 'code') {
      throw new RegistrationError('invalid_client_metadata', 'response_types must be ["code"]');
    }
    for (const field of ['client_uri', 'logo_uri', 'scope', 'software_id', 'software_version'] as const) {
      if (m[field] !== undefined && (typeof m[field] !== 'string' || (m[field] as string).length > 2000)) {
        throw new RegistrationError('invalid_client_metadata', `${field} must be a string`);
      }
    }
    const clientId = `dcr_${randomBytes(16).toString('base64url')}`;
    const issuedAt = Math.floor(this.now() / 1000);
    const registered: Record<string, unknown> = {
      client_id: clientId,
      client_id_issued_at: issuedAt,
      client_name: name.trim(),
      redirect_uris: redirectUris,
      grant_types: grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    for (const field of ['client_uri', 'logo_uri', 'software_id', 'software_version'] as const) {
      if (typeof m[field] === 'string') registered[field] = m[field];
    }
    await this.db('oauth_clients').insert({
      client_id: clientId,
      client_name: name.trim(),
      redirect_uris: JSON.stringify(redirectUris),
      verified_host: verifiedHostOf(redirectUris) ?? null,
      metadata: JSON.stringify(registered),
      created_at: this.now(),
    });
    return registered;
  }
}
