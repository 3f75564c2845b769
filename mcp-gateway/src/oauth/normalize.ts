/** Emails are compared trimmed and lower-cased, as the ledger stores them. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
