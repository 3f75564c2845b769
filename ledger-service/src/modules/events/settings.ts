/** The defaults of LedgerConfig.events, for configs built without loadConfig (tests, the CLI). */
export const DEFAULT_EVENT_SETTINGS = {
  retentionDays: 400,
  allowLoopback: false,
  webhookQueue: 'webhook_deliveries',
} as const;

/** Subscriptions one ledger process sends to at once (each subscription one delivery at a time, in order). */
export const DEFAULT_WEBHOOK_SENDERS = 8;
