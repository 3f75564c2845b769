export * from './errors.ts';
export * from './scopes.ts';
export * from './money.ts';
export * from './credential.ts';
export * from './secrets.ts';
export * from './schemas/index.ts';
export * from './config.ts';
