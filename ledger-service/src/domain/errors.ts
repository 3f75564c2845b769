import type { BatchProblem, ConfirmationPreview, ErrorCode } from '@ledger/shared';

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

/**
 * A batch refused as a whole (docs/batches.md): every problem found, each naming its document's
 * index and the field inside it. All conflicts → 409 conflict; otherwise 400 invalid_request.
 */
export class BatchRefused extends DomainError {
  constructor(readonly problems: readonly BatchProblem[]) {
    const conflictsOnly = problems.every((p) => p.code === 'conflict');
    const documents = new Set(problems.map((p) => p.index)).size;
    super(
      conflictsOnly ? 'conflict' : 'invalid_request',
      `${documents} document${documents === 1 ? '' : 's'} of the batch refused; nothing was written (see errors).`,
    );
  }
}

/**
 * An AI connection's write that posts, pays, sends or deletes, refused for want of a valid
 * confirmation (kernel/confirmation.ts): 428 with what the write would have done (`preview`,
 * computed by the write itself, then rolled back) and a new token confirming exactly it.
 */
export class ConfirmationRequired extends DomainError {
  constructor(
    message: string,
    readonly preview: ConfirmationPreview,
    readonly confirmation: { token: string; expires_at: string },
  ) {
    super('confirmation_required', message);
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
