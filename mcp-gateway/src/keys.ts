/**
 * The gateway's Ed25519 key pair (jose). It signs the service credential and the internal
 * credential for the ledger. From GATEWAY_PRIVATE_JWK, or created on first start in
 * `<dataDir>/gateway-private.jwk` (mode 0600) with `gateway-public.jwk` beside it, which
 * the ledger reads when GATEWAY_PUBLIC_JWK is not set.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { GatewayConfig } from './config.ts';

export interface GatewayKeys {
  privateKey: CryptoKey | Uint8Array;
  publicJwk: JWK;
  /** 32 bytes derived from the private key, for HMACs such as CSRF tokens */
  hmacSecret: Buffer;
}

function publicPart(jwk: JWK): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, alg: 'EdDSA', use: 'sig' };
}

async function fromJwk(jwk: JWK): Promise<GatewayKeys> {
  return {
    privateKey: await importJWK({ ...jwk, alg: 'EdDSA' }, 'EdDSA'),
    publicJwk: publicPart(jwk),
    hmacSecret: createHash('sha256').update('gateway-hmac:').update(String(jwk.d)).digest(),
  };
}

export async function loadKeys(config: GatewayConfig): Promise<GatewayKeys> {
  if (config.privateJwk) return fromJwk(JSON.parse(config.privateJwk) as JWK);
  mkdirSync(config.dataDir, { recursive: true });
  const privateFile = join(config.dataDir, 'gateway-private.jwk');
  const publicFile = join(config.dataDir, 'gateway-public.jwk');
  if (!existsSync(privateFile)) {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const jwk = await exportJWK(privateKey);
    try {
      writeFileSync(privateFile, JSON.stringify(jwk), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // another process created it at the same moment: use theirs
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(privateFile, 0o600);
  const jwk = JSON.parse(readFileSync(privateFile, 'utf8')) as JWK;
  const keys = await fromJwk(jwk);
  const pub = JSON.stringify(keys.publicJwk);
  if (!existsSync(publicFile) || readFileSync(publicFile, 'utf8') !== pub)
    writeFileSync(publicFile, pub, { mode: 0o644 });
  return keys;
}
