/**
 * Role → permission table (the only place it lives). Permissions are named after the
 * app's pages: `vendors.postings.vendor_transaction` is "Vendors → Postings → Vendor Transaction".
 */
export const ROLES = ['owner', 'admin', 'accountant', 'clerk', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  // contacts
  'vendors.vendors',
  'vendors.add_vendor',
  'customers.customers',
  'customers.add_customer',
  // AP / AR documents
  'vendors.reports.transactions',
  'vendors.postings.vendor_transaction',
  'vendors.postings.approve',
  'vendors.postings.reverse',
  'customers.reports.transactions',
  'customers.postings.customer_transaction',
  'customers.postings.approve',
  'customers.postings.reverse',
  'vendors.postings.vendor_invoice',
  'customers.postings.sales_invoice',
  'vendors.postings.payment',
  'customers.postings.receipt',
  'workstation.workstation',
  'services.services',
  'services.add_service',
  // general ledger and reports
  'gl.journal_entries',
  'gl.add_journal_entry',
  'reports.reports',
  // bank, documents
  'bank.bank_accounts',
  'bank.manage_accounts',
  'bank.import',
  'bank.payment_files',
  'documents.documents',
  'documents.upload',
  // system ('system.company': changing the company's name, address, VAT number, invoice bank account and book accounts;
  // 'system.add_account': "System → Chart of Accounts → Add Account", adding and changing accounts)
  'system.company',
  'system.chart_of_accounts',
  'system.add_account',
  'system.taxes',
  'system.fiscal_years',
  'system.close_books',
  'system.reopen_books',
  'system.audit_log',
  'system.management.api_keys',
  'system.management.ai_connections',
  'system.management.members',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READ: Permission[] = [
  'vendors.vendors',
  'customers.customers',
  'vendors.reports.transactions',
  'customers.reports.transactions',
  'workstation.workstation',
  'services.services',
  'gl.journal_entries',
  'reports.reports',
  'bank.bank_accounts',
  'documents.documents',
  'system.chart_of_accounts',
  'system.taxes',
  'system.fiscal_years',
];

const CLERK: Permission[] = [
  ...READ,
  'vendors.add_vendor',
  'customers.add_customer',
  'vendors.postings.vendor_transaction',
  'customers.postings.customer_transaction',
  'vendors.postings.vendor_invoice',
  'customers.postings.sales_invoice',
  'documents.upload',
  'services.add_service',
];

const ACCOUNTANT: Permission[] = [
  ...CLERK,
  'vendors.postings.approve',
  'vendors.postings.reverse',
  'customers.postings.approve',
  'customers.postings.reverse',
  'vendors.postings.payment',
  'customers.postings.receipt',
  'gl.add_journal_entry',
  'bank.import',
  'bank.payment_files',
];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  // reopening closed periods changes what was reported: owners only
  admin: new Set(PERMISSIONS.filter((p) => p !== 'system.reopen_books')),
  accountant: new Set(ACCOUNTANT),
  clerk: new Set(CLERK),
  viewer: new Set(READ),
};

export function isRole(s: string): s is Role {
  return (ROLES as readonly string[]).includes(s);
}

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** Only owners and admins may connect assistants (docs/oauth.md "Consent"). */
export function mayConnectAssistants(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}
