/**
 * Every endpoint of the key-based REST API. This list is the only registry: the ledger
 * mounts one handler per entry, and permissions, OpenAPI, MCP tools and docs tables derive
 * from it. Order carries no meaning (module namespaces enumerate their names sorted); the
 * docs tables sort by path.
 */
import type { Contract } from './contract.ts';
import * as assets from './assets.ts';
import * as bank from './bank.ts';
import * as bankTransactions from './bankTransactions.ts';
import * as bankRules from './bankRules.ts';
import * as paymentFiles from './paymentFiles.ts';
import * as company from './company.ts';
import * as dimensions from './dimensions.ts';
import * as documents from './documents.ts';
import * as events from './events.ts';
import * as files from './files.ts';
import * as inbox from './inbox.ts';
import * as fiscalYears from './fiscalYears.ts';
import * as invoices from './invoices.ts';
import * as journal from './journal.ts';
import * as batches from './batches.ts';
import * as mail from './mail.ts';
import * as members from './members.ts';
import * as parties from './parties.ts';
import * as reports from './reports.ts';
import * as revaluation from './revaluation.ts';
import * as payments from './payments.ts';
import * as services from './services.ts';
import * as system from './system.ts';
import * as transactions from './transactions.ts';
import * as vat from './vat.ts';
import * as webhooks from './webhooks.ts';
import * as internal from './internal.ts';

export * from './contract.ts';
export * from './errorStatuses.ts';

/** The contracts by name (`contracts.getParty`), for handlers and MCP tools. */
export const contracts = {
  ...system,
  ...dimensions,
  ...revaluation,
  ...company,
  ...bank,
  ...bankTransactions,
  ...bankRules,
  ...paymentFiles,
  ...parties,
  ...services,
  ...transactions,
  ...invoices,
  ...documents,
  ...mail,
  ...inbox,
  ...files,
  ...payments,
  // before journal: POST /gl/transactions/batch is mounted ahead of POST /gl/transactions/:id, which would take it
  ...batches,
  ...journal,
  ...fiscalYears,
  ...reports,
  // runDepreciation sorts before updateAsset: POST /assets/depreciation_run is mounted ahead of POST /assets/:id
  ...assets,
  ...vat,
  ...members,
  ...events,
  ...webhooks,
} as const;
export type ContractName = keyof typeof contracts;

export const CONTRACTS: readonly Contract[] = Object.values(contracts);

/**
 * The internal API's contracts (`/internal/*`, only for the gateway; contracts/internal.ts),
 * by name: a registry of their own, so nothing that publishes CONTRACTS can list them.
 */
export const internalContracts = internal;
export const INTERNAL_CONTRACTS: readonly Contract[] = Object.values(internalContracts);

/** Refuses an internal contract where only public ones belong (OpenAPI, tools, docs tables). */
export function assertPublic(c: Contract): void {
  if (c.internal) throw new Error(`${c.name} is an internal contract; it is not published`);
}

export function findContract(name: string): Contract | undefined {
  return Object.hasOwn(contracts, name) ? contracts[name as ContractName] : undefined;
}
