import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout. Credentials never reach a log line: request logs carry method,
 * path (never the query) and status, and these paths are redacted should anything log them.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'specbase' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'password', 'token', 'secret', '*.password', '*.token', '*.secret'],
      censor: '[redacted]',
    },
  });
}
