import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout (or `destination`). Credentials never reach a log line: request
 * logs carry method, path (never the query) and status, and these paths are redacted should
 * anything log them — including the bound parameters a database error carries, which may hold a
 * webhook secret or a hash. The one deliberate exception is MAILER=log, whose lines are the mail.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'specbase' },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'cookie',
        '*.cookie',
        'password',
        'token',
        'secret',
        '*.password',
        '*.token',
        '*.secret',
        'err.parameters',
        'err.driverError.parameters',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
