import type { Dimensions } from '../../db/tables.ts';

export type { Dimensions };
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * The pure rule of a posting line's `dimensions`: every dimension code it names exists and is
 * active, and so is the value it names. Lines without dimensions (or with `{}`) are unassigned.
 */

/** dimension code → its active flag and its values (value code → active). */
export type DimensionCatalogue = ReadonlyMap<string, { active: boolean; values: ReadonlyMap<string, boolean> }>;

/** The line's dimensions as stored (null: unassigned), or a 400 naming the field at fault. */
export function checkDimensions(
  given: Readonly<Record<string, string>> | undefined | null,
  catalogue: DimensionCatalogue,
  at: string,
): Dimensions | null {
  if (!given) return null;
  const entries = Object.entries(given);
  if (entries.length === 0) return null;
  for (const [code, value] of entries) {
    const dimension = catalogue.get(code);
    if (!dimension) throw ruleInvalid(`There is no dimension "${code}" (GET /system/dimensions).`, `${at}/${code}`);
    if (!dimension.active) throw ruleInvalid(`The dimension "${code}" is inactive.`, `${at}/${code}`);
    const active = dimension.values.get(value);
    if (active === undefined) throw ruleInvalid(`The dimension "${code}" has no value "${value}".`, `${at}/${code}`);
    if (!active) throw ruleInvalid(`The value "${value}" of dimension "${code}" is inactive.`, `${at}/${code}`);
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** Whether any of the lines names a dimension (the catalogue is only read then). */
export function namesDimensions(lines: readonly { dimensions?: Readonly<Record<string, string>> | null }[]): boolean {
  return lines.some((l) => l.dimensions && Object.keys(l.dimensions).length > 0);
}
