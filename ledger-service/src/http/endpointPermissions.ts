import type { Scope } from '@ledger/shared';
import type { Permission } from '../domain/permissions.ts';

/**
 * Endpoint → permission map (the only place it lives), plus the OAuth scope an AI
 * connection needs for the endpoint. Keys are "METHOD path" as registered under
 * /client/:dataset; `{vc}` in a permission or scope is replaced by the path's :vc
 * (vendor → `vendors.postings.vendor_transaction`, customer → `customers.postings.customer_transaction`).
 * `permission: null` means any member of the company (with a valid key) may call it.
 */
export interface EndpointRule {
  permission: Permission | `${string}{vc}${string}` | null;
  scope: Scope | null;
}

export const ENDPOINT_PERMISSIONS: Record<string, EndpointRule> = {
  'POST /auth/validate_api': { permission: null, scope: null },

  // parties
  'GET /arap/:vc': { permission: '{vc}s.{vc}s', scope: 'contacts:read' },
  'POST /arap/:vc': { permission: '{vc}s.add_{vc}', scope: 'contacts:write' },
  'GET /arap/:vc/:id': { permission: '{vc}s.{vc}s', scope: 'contacts:read' },
  'POST /arap/:vc/:id': { permission: '{vc}s.add_{vc}', scope: 'contacts:write' },
  'DELETE /arap/:vc/:id': { permission: '{vc}s.add_{vc}', scope: 'contacts:write' },
  'GET /arap/vendor/:id/bank_accounts': { permission: 'vendors.vendors', scope: 'contacts:read' },
  'POST /arap/vendor/:id/bank_accounts': { permission: 'vendors.add_vendor', scope: 'contacts:write' },

  // AR/AP transactions
  'POST /arap/transaction/:vc': { permission: '{vc}s.postings.{vc}_transaction', scope: 'invoices:write' },
  'POST /arap/transaction/:vc/:id': { permission: '{vc}s.postings.{vc}_transaction', scope: 'invoices:write' },
  'POST /arap/transaction/:vc/:id/approve': { permission: '{vc}s.postings.approve', scope: 'invoices:write' },
  'POST /arap/transaction/:vc/:id/reverse': { permission: '{vc}s.postings.reverse', scope: 'invoices:write' },
  'DELETE /arap/transaction/:vc/:id': { permission: '{vc}s.postings.{vc}_transaction', scope: 'invoices:write' },
  'GET /arap/transaction/:vc/:id': { permission: '{vc}s.reports.transactions', scope: 'invoices:read' },
  'GET /arap/transaction/:vc/:id/files/:fileId': { permission: '{vc}s.reports.transactions', scope: 'invoices:read' },
  // as updating the document (posted documents also need …postings.approve, checked by the workflow)
  'DELETE /arap/transaction/:vc/:id/files/:fileId': { permission: '{vc}s.postings.{vc}_transaction', scope: 'invoices:write' },
  'GET /arap/transactions/:vc': { permission: '{vc}s.reports.transactions', scope: 'invoices:read' },

  // system
  'GET /system/chart/accounts': { permission: 'system.chart_of_accounts', scope: 'accounting:read' },
  'GET /system/taxes': { permission: 'system.taxes', scope: 'accounting:read' },
  'GET /system/close_books': { permission: 'system.fiscal_years', scope: 'accounting:read' },
  'POST /system/close_books': { permission: 'system.close_books', scope: null },
  'GET /system/api_keys': { permission: 'system.management.api_keys', scope: null },
  'POST /system/api_keys': { permission: 'system.management.api_keys', scope: null },
  'DELETE /system/api_keys/:id': { permission: 'system.management.api_keys', scope: null },
  'GET /system/audit': { permission: 'system.audit_log', scope: null },
};

/** Resolves `{vc}` placeholders for one request. */
export function resolveRule(rule: EndpointRule, vc: string | undefined): { permission: string | null; scope: string | null } {
  const fill = (s: string | null) => (s && vc ? s.replaceAll('{vc}', vc) : s);
  return { permission: fill(rule.permission), scope: fill(rule.scope) };
}
