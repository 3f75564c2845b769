/** MCP areas and OAuth scopes (docs/assistants.md "What each choice allows"). A write scope includes reading. */
export const AREAS = ['accounting', 'invoices', 'contacts', 'bank', 'documents'] as const;
export type Area = (typeof AREAS)[number];

export const AREA_LABELS: Record<Area, string> = {
  accounting: 'Accounting',
  invoices: 'Invoices and bills',
  contacts: 'Contacts',
  bank: 'Bank',
  documents: 'Documents',
};

/** Areas offering a write scope (all of them since bank automation: booking bank lines and bank rules). */
export const WRITABLE_AREAS: readonly Area[] = ['accounting', 'invoices', 'contacts', 'bank', 'documents'];

export type Access = 'read' | 'write';
export type Scope = `${Area}:${Access}`;

export const ALL_SCOPES: readonly Scope[] = AREAS.flatMap((a) =>
  WRITABLE_AREAS.includes(a) ? [`${a}:read`, `${a}:write`] : [`${a}:read`],
) as Scope[];

export function isScope(s: string): s is Scope {
  return (ALL_SCOPES as readonly string[]).includes(s);
}

/** True when the granted scopes allow `needed` (write implies read). */
export function scopeSatisfied(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  const [area, access] = needed.split(':');
  return access === 'read' && granted.includes(`${area}:write`);
}
