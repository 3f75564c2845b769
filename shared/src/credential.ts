/**
 * The service credential (docs/oauth.md "Gateway ↔ ledger"): a short-lived EdDSA JWT the gateway signs
 * for the connected person; the ledger verifies it and acts as that user.
 */
export const SERVICE_CREDENTIAL = {
  issuer: 'mcp-gateway',
  audience: 'ledger-service',
  algorithm: 'EdDSA',
  maxLifetimeSeconds: 60,
} as const;

export interface ServiceCredentialClaims {
  /** user id in the ledger, as a string */
  sub: string;
  dataset: string;
  /** connection id in the gateway */
  conn: string;
  /** granted scopes, space separated */
  scope: string;
  client_name: string;
  /**
   * What the gateway acts for: an AI connection (the default, when absent) or the signed-in
   * person on the gateway's app pages ('app': no connection, all of the role's permissions,
   * audited "via app").
   */
  kind?: 'ai_connection' | 'app';
}

/** The label of app credentials in the audit log ("via app"). */
export const APP_VIA_LABEL = 'app';

/**
 * The gateway's internal credential for the ledger's `/internal/*` API: same key pair
 * as the service credential, a distinct audience, so neither can stand in for the other.
 */
export const INTERNAL_CREDENTIAL = {
  issuer: 'mcp-gateway',
  audience: 'ledger-internal',
  subject: 'gateway',
  algorithm: 'EdDSA',
  maxLifetimeSeconds: 60,
} as const;
