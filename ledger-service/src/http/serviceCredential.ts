import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importJWK, jwtVerify, type JWK, type CryptoKey } from 'jose';
import { SERVICE_CREDENTIAL, type ServiceCredentialClaims } from '@ledger/shared';
import type { LedgerConfig } from '../config.ts';

/**
 * Verifies the gateway's service credentials (DESIGN.md §2). The gateway's public key
 * comes from GATEWAY_PUBLIC_JWK or, for the embedded setup, `<dataDir>/gateway-public.jwk`,
 * which the gateway writes when it creates its key pair.
 */
export class ServiceCredentialVerifier {
  private key: CryptoKey | Uint8Array | undefined;

  constructor(private readonly config: LedgerConfig) {}

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
      return {
        sub: c.sub, dataset: c.dataset, scope: c.scope,
        conn: String(c.conn ?? ''), client_name: String(c.client_name ?? 'AI assistant'),
      };
    } catch {
      return undefined;
    }
  }
}
