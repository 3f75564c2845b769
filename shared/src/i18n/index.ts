export * from './languages.ts';
export * from './format.ts';
export * from './translate.ts';
