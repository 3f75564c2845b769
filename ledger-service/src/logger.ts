import { pino, type Logger } from 'pino';

/** Structured JSON logs. Secrets are redacted by path, whatever the caller logs. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.api_key',
        '*.key',
        '*.totp_secret',
        '*.token',
      ],
      censor: '[redacted]',
    },
  });
}
export type { Logger };
