import type { ErrorCode } from '@ledger/shared';

/**
 * A refusal found by domain code (rules, services, stores): it carries the API error code
 * and the JSON pointer of the field at fault, but nothing of HTTP. The one error middleware
 * (kernel/errors.ts) turns it into the status and error body of the code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The input breaks a rule: 400 invalid_request. */
export const ruleInvalid = (message: string, field?: string) => new DomainError('invalid_request', message, field);
/** No such record (in this company): 404 not_found. */
export const notFound = (message: string) => new DomainError('not_found', message);
/** Duplicate, still referenced, or the wrong state: 409 conflict. */
export const conflict = (message: string, field?: string) => new DomainError('conflict', message, field);
/** The acting member lacks a permission the workflow needs: 403 forbidden. */
export const forbidden = (message: string) => new DomainError('forbidden', message);
