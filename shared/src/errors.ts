/** Error codes shared by the ledger, the gateway and the tests (docs/rest-api.md). */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_currency: 400,
  vc_not_found: 400,
  amount_exceeded: 400,
  unbalanced: 400,
  /** a payment above the document's open amount */
  overpayment: 400,
  closed_period: 422,
  /** a VAT-relevant posting dated in the period of a settled VAT return (docs/vat.md "The lock") */
  vat_period_filed: 422,
  unauthorized: 401,
  forbidden: 403,
  /** a service credential whose connection may no longer live (docs/oauth.md "Gateway ↔ ledger"); carries `reason` */
  connection_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** the Accept header allows none of the representations the endpoint has (reports: JSON, CSV, PDF) */
  not_acceptable: 406,
  /** the request was not received within the server's request timeout (Node's parser) */
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  /**
   * an AI connection's write that posts, pays, sends or deletes, without a valid confirmation
   * of the person; carries the ledger's `preview` and a new `confirmation` (docs/mcp.md "Confirmation")
   */
  confirmation_required: 428,
  unsupported_media_type: 415,
  /** the request's headers are above Node's limit (16 KiB), refused before any handler */
  request_header_fields_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: {
    code: ErrorCode | string;
    message: string;
    field?: string;
    reason?: string;
    errors?: BatchProblem[];
    /** confirmation_required: what the write would do (docs/mcp.md "Confirmation") */
    preview?: ConfirmationPreview;
    /** confirmation_required: the token that confirms exactly this write */
    confirmation?: { token: string; expires_at: string };
  };
}

/** What an AI connection's write would do, as the ledger computes it for the person's confirmation. */
export interface ConfirmationPreview {
  effect: 'posts' | 'pays' | 'sends' | 'deletes';
  /** gross (documents), the amount (payments) or the total of the debits (journal entries), decimal string */
  gross?: string;
  net?: string;
  tax?: string;
  currency?: string;
  party?: string;
  /** the document's number or reference */
  number?: string;
  date?: string;
  /** the accounts the write books to */
  accounts?: string[];
  /** the write's answer as it would be (nothing was written) */
  answer?: unknown;
}

/** One problem of a refused batch (docs/batches.md), listed in `error.errors`. */
export interface BatchProblem {
  /** position of the document in the batch (from 0) */
  index: number;
  /** JSON pointer inside that document ('' for the document as a whole) */
  field: string;
  code: ErrorCode | string;
  message: string;
}
