export { loadConfig, ConfigError, type LedgerConfig } from './config.ts';
export { startLedger, openDatabase, type RunningLedger, type Database } from './server.ts';
export { migrateLatest } from './db/migrate.ts';
