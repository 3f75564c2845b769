import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './requestContext.ts';

/**
 * Structured JSON logs. Secrets are redacted by path, whatever the caller logs. A line
 * written while a request is served carries its id (`reqId`, requestContext.ts).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    mixin() {
      const reqId = currentRequestId();
      return reqId ? { reqId } : {};
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        '*.password',
        '*.totp',
        '*.code',
        '*.token',
        '*.access_token',
        '*.refresh_token',
        '*.code_verifier',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
