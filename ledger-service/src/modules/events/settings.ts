/** The defaults of LedgerConfig.events, for configs built without loadConfig (tests, the CLI). */
export const DEFAULT_EVENT_SETTINGS = {
  retentionDays: 400,
  allowLoopback: false,
  webhookQueue: 'webhook_deliveries',
} as const;
