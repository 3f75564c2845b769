import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importJWK, jwtVerify, type JWK, type CryptoKey } from 'jose';
import { SERVICE_CREDENTIAL, type ServiceCredentialClaims } from '@ledger/shared';
import type { LedgerConfig } from '../config.ts';

/**
 * Verifies the gateway's service credentials (docs/oauth.md "Gateway ↔ ledger"). The gateway's public key
 * comes from GATEWAY_PUBLIC_JWK or, for the embedded setup, `<dataDir>/gateway-public.jwk`,
 * which the gateway writes when it creates its key pair.
 */
export class ServiceCredentialVerifier {
  private key: CryptoKey | Uint8Array | undefined;
  /**
   * Credentials already verified, by the SHA-256 of the exact token string, until they
   * expire: the gateway reuses a credential for many calls, and an EdDSA verification per
   * request is a measurable part of the ledger's CPU. Only the signature check is cached;
   * the person, role and company are checked on every request (auth.ts).
   */
  private readonly verified = new Map<string, { token: Buffer; claims: ServiceCredentialClaims; until: number }>();

  constructor(
    private readonly config: LedgerConfig,
    private readonly now: () => number = Date.now,
  ) {}

  static readonly MAX_CACHED = 10_000;

  private async publicKey(): Promise<CryptoKey | Uint8Array | undefined> {
    if (this.key) return this.key;
    let raw = this.config.gatewayPublicJwk;
    if (!raw) {
      raw = await readFile(join(this.config.dataDir, 'gateway-public.jwk'), 'utf8').catch(() => undefined);
    }
    if (!raw) return undefined;
    this.key = await importJWK(JSON.parse(raw) as JWK, SERVICE_CREDENTIAL.algorithm);
    return this.key;
  }

  /** The claims, or undefined when the token is forged, expired, or not meant for the ledger. */
  async verify(token: string): Promise<ServiceCredentialClaims | undefined> {
    const id = createHash('sha256').update(token).digest('base64url');
    const hit = this.verified.get(id);
    if (hit) {
      const presented = Buffer.from(token);
      if (hit.until > this.now() && hit.token.length === presented.length && timingSafeEqual(hit.token, presented))
        return hit.claims;
      this.verified.delete(id);
    }
    const claims = await this.verifyJwt(token);
    if (claims) this.remember(id, token, claims.claims, claims.until);
    return claims?.claims;
  }

  private remember(id: string, token: string, claims: ServiceCredentialClaims, until: number): void {
    if (until <= this.now()) return;
    if (this.verified.size >= ServiceCredentialVerifier.MAX_CACHED) {
      const now = this.now();
      for (const [k, v] of this.verified) if (v.until <= now) this.verified.delete(k);
      if (this.verified.size >= ServiceCredentialVerifier.MAX_CACHED) this.verified.clear();
    }
    this.verified.set(id, { token: Buffer.from(token), claims, until });
  }

  private async verifyJwt(token: string): Promise<{ claims: ServiceCredentialClaims; until: number } | undefined> {
    const key = await this.publicKey();
    if (!key) return undefined;
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: SERVICE_CREDENTIAL.issuer,
        audience: SERVICE_CREDENTIAL.audience,
        algorithms: [SERVICE_CREDENTIAL.algorithm],
        maxTokenAge: `${SERVICE_CREDENTIAL.maxLifetimeSeconds + 5}s`,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const c = payload as Partial<ServiceCredentialClaims>;
      if (typeof c.sub !== 'string' || typeof c.dataset !== 'string' || typeof c.scope !== 'string') return undefined;
      // valid until it expires and while it is within the accepted age (as jwtVerify checks)
      const until = Math.min(
        Number(payload.exp) * 1000,
        (Number(payload.iat) + SERVICE_CREDENTIAL.maxLifetimeSeconds + 5) * 1000,
      );
      return {
        claims: {
          sub: c.sub,
          dataset: c.dataset,
          scope: c.scope,
          conn: String(c.conn ?? ''),
          client_name: String(c.client_name ?? 'AI assistant'),
          kind: c.kind === 'app' ? 'app' : 'ai_connection',
        },
        until,
      };
    } catch {
      return undefined;
    }
  }
}
