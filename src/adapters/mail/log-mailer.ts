import type { Logger } from 'pino';
import type { MailMessage, Mailer } from '../../application/ports/mailer.port.js';

/**
 * The default mailer: writes each message to the log, whole, for an operator (or a developer on
 * their machine) to pass on. Its lines carry one-time links, so it is meant for development and
 * small installations; logs of a production service should not hold them (docs/configuration.md,
 * MAILER). Logged at `warn`, so a message is not lost to LOG_LEVEL=warn.
 */
export class LogMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.warn({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'mail for delivery by hand (MAILER=log)');
  }
}
