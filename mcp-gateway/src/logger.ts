import { pino, type Logger } from 'pino';

/** Structured JSON logs. Secrets are redacted by path, whatever the caller logs. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]',
        '*.password', '*.totp', '*.code', '*.token', '*.access_token', '*.refresh_token', '*.code_verifier',
      ],
      censor: '[redacted]',
    },
  });
}
export type { Logger };
