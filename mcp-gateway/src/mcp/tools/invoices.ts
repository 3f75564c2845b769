import type { ToolDeclaration } from './declare.ts';
export const invoiceTools: ToolDeclaration[] = [];
