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
  unsupported_media_type: 415,
  /** the request's headers are above Node's limit (16 KiB), refused before any handler */
  request_header_fields_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: { code: ErrorCode | string; message: string; field?: string; reason?: string; errors?: BatchProblem[] };
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
