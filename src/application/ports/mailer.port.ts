import { token } from '../shared/token.js';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  /** Plain text. */
  readonly text: string;
}

export interface Mailer {
  /** Hands the message over for delivery; rejects when it could not be handed over. */
  send(message: MailMessage): Promise<void>;
}
export const Mailer = token<Mailer>('Mailer');
