/**
 * What both services agree on about companies and AI connections: the dataset name rule, the MCP URL, refusal reasons.
 */

/**
 * A dataset (company) name: lower-case letters, digits, `_` and `-`, 2–63 characters, starting with a letter or digit.
 */
export const DATASET_PATTERN = /^[a-z0-9][a-z0-9_-]{1,62}$/;

export function isDatasetName(s: string): boolean {
  return DATASET_PATTERN.test(s);
}

/**
 * `{api_url}/mcp/{dataset}`: the company's MCP server, which is also the OAuth `resource` (docs/oauth.md "The flow").
 */
export function mcpUrl(publicUrl: string, dataset: string): string {
  return `${publicUrl.replace(/\/$/, '')}/mcp/${encodeURIComponent(dataset)}`;
}

/**
 * Why an AI connection may no longer act (docs/oauth.md "Connections"), in the order the
 * ledger checks them. The ledger answers 403 connection_not_allowed with one of these as
 * `reason`; the gateway then ends the connection for good with the same reason.
 */
export const CONNECTION_REFUSALS = {
  company_gone: 'The company no longer exists.',
  user_deactivated: "The connected person's account is deactivated.",
  membership_lost: 'The connected person no longer has access to the company.',
  role_lost: 'The connected person is no longer owner or admin of the company.',
  ai_connections_off: 'AI connections are switched off for the company.',
} as const;
export type ConnectionRefusal = keyof typeof CONNECTION_REFUSALS;

export function isConnectionRefusal(s: string): s is ConnectionRefusal {
  return Object.hasOwn(CONNECTION_REFUSALS, s);
}

/**
 * How the connected person confirmed a consequential write an assistant made (posting,
 * approving a bill, recording a payment, sending an invoice or reminder): the gateway sends
 * it with the write in this header, the ledger records it in the write's audit entry
 * (`details.confirmation`). `company_setting`: the company lets AI connections post without
 * confirmation (`ai_may_post_without_confirmation`). Only service credentials of AI
 * connections may send it.
 */
export const ASSISTANT_CONFIRMATION_HEADER = 'X-Assistant-Confirmation';
export const ASSISTANT_CONFIRMATIONS = ['elicitation', 'input_required', 'company_setting'] as const;
export type AssistantConfirmation = (typeof ASSISTANT_CONFIRMATIONS)[number];
/**
 * The confirmation token of an AI connection's write that posts, pays, sends or deletes: the
 * ledger hands it out with its 428 `confirmation_required` (with the preview the person is
 * shown) and takes it once, within 10 minutes, for the same connection, tool and request.
 */
export const CONFIRMATION_TOKEN_HEADER = 'X-Assistant-Confirmation-Token';
/** The MCP tool an AI connection's request is made for (the gateway sends it; a confirmation is bound to it). */
export const ASSISTANT_TOOL_HEADER = 'X-Assistant-Tool';
/** How long a confirmation token stays valid. */
export const CONFIRMATION_TTL_MS = 10 * 60_000;
