import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConfigError, type LedgerConfig } from './config.ts';

/**
 * The 32-byte key that encrypts TOTP secrets: LEDGER_ENCRYPTION_KEY (base64), or for the
 * embedded setup a key file created on first use under the data directory (mode 0600).
 */
export function loadEncryptionKey(config: LedgerConfig): Buffer {
  if (config.encryptionKey) {
    const key = Buffer.from(config.encryptionKey, 'base64');
    if (key.length !== 32) throw new ConfigError('LEDGER_ENCRYPTION_KEY must be 32 bytes, base64 encoded');
    return key;
  }
  const file = join(config.dataDir, 'ledger.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
