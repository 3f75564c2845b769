/** What runs the ledger from outside the package: `npm start` (scripts/start.ts) imports only this. */
export { loadConfig, ConfigError, type LedgerConfig } from './config.ts';
export { startLedger, openDatabase, type RunningLedger, type Database } from './server.ts';
export { migrateLatest } from './db/migrate.ts';
export { publishEmbeddedUrl } from './db/embeddedLock.ts';
export { createDemo, type DemoInfo } from './demo.ts';
export { demoFile, demoLines, writeDemoFile } from './demoInfo.ts';
export { loadEncryptionKey } from './secretKey.ts';
