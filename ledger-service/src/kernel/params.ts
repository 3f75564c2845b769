import { ApiError } from './errors.ts';

/** A path id: a positive integer, else the resource cannot exist (404). */
export function idParam(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(id)) {
    throw new ApiError('not_found', `No ${what} with id ${raw ?? ''}.`);
  }
  return id;
}
