import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { INTERNAL_CREDENTIAL } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';

/** Verifies the gateway's internal JWTs against the gateway's public key. */
export class InternalCredentialVerifier {
  private key: CryptoKey | Uint8Array | undefined;

  constructor(private readonly config: LedgerConfig) {}

  private async publicKey(): Promise<CryptoKey | Uint8Array | undefined> {
    if (this.key) return this.key;
    const raw =
      this.config.gatewayPublicJwk ??
      (await readFile(join(this.config.dataDir, 'gateway-public.jwk'), 'utf8').catch(() => undefined));
    if (!raw) return undefined;
    this.key = await importJWK(JSON.parse(raw) as JWK, INTERNAL_CREDENTIAL.algorithm);
    return this.key;
  }

  async verify(token: string): Promise<boolean> {
    const key = await this.publicKey();
    if (!key) return false;
    try {
      await jwtVerify(token, key, {
        issuer: INTERNAL_CREDENTIAL.issuer,
        audience: INTERNAL_CREDENTIAL.audience,
        subject: INTERNAL_CREDENTIAL.subject,
        algorithms: [INTERNAL_CREDENTIAL.algorithm],
        maxTokenAge: `${INTERNAL_CREDENTIAL.maxLifetimeSeconds + 5}s`,
        requiredClaims: ['exp', 'iat'],
      });
      return true;
    } catch {
      return false;
    }
  }
}
