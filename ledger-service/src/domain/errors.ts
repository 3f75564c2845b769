import type { ErrorCode } from '@ledger/shared';

/**
 * A business-rule violation found by pure domain code. It carries the API error code and
 * the JSON pointer of the field at fault; the HTTP layer turns it into an ApiError.
 */
export class RuleError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const ruleInvalid = (message: string, field?: string) => new RuleError('invalid_request', message, field);
