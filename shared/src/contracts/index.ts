/**
 * Every endpoint of the key-based REST API. This list is the only registry: the ledger
 * mounts one handler per entry, and permissions, OpenAPI, MCP tools and docs tables derive
 * from it. Order carries no meaning (module namespaces enumerate their names sorted); the
 * docs tables sort by path.
 */
import type { Contract } from './contract.ts';
import * as bank from './bank.ts';
import * as bankTransactions from './bankTransactions.ts';
import * as paymentFiles from './paymentFiles.ts';
import * as company from './company.ts';
import * as documents from './documents.ts';
import * as files from './files.ts';
import * as inbox from './inbox.ts';
import * as fiscalYears from './fiscalYears.ts';
import * as invoices from './invoices.ts';
import * as journal from './journal.ts';
import * as mail from './mail.ts';
import * as parties from './parties.ts';
import * as reports from './reports.ts';
import * as payments from './payments.ts';
import * as services from './services.ts';
import * as system from './system.ts';
import * as transactions from './transactions.ts';

export * from './contract.ts';
export * from './errorStatuses.ts';

/** The contracts by name (`contracts.getParty`), for handlers and MCP tools. */
export const contracts = { ...system, ...company, ...bank, ...bankTransactions, ...paymentFiles, ...parties, ...services, ...transactions, ...invoices, ...documents, ...mail, ...inbox, ...files, ...payments, ...journal, ...fiscalYears, ...reports } as const;
export type ContractName = keyof typeof contracts;

export const CONTRACTS: readonly Contract[] = Object.values(contracts);

export function findContract(name: string): Contract | undefined {
  return Object.hasOwn(contracts, name) ? contracts[name as ContractName] : undefined;
}
