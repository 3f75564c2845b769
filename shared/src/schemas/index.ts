export * from './common.ts';
export * from './party.ts';
export * from './system.ts';
export * from './transaction.ts';
export * from './list.ts';
export * from './service.ts';
export * from './invoice.ts';
export * from './mail.ts';
