import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailMessage, Mailer } from '../../application/ports/mailer.port.js';

/** Header values are ours or an e-mail address the domain validated; no line breaks get through. */
function header(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/**
 * Writes each message as an RFC 5322 `.eml` file (readable only by the service's user) into a
 * directory, for a mail relay, a pickup directory or a person to take from there. Written to a
 * temporary name and renamed, so a reader never sees half a message.
 */
export class FileMailer implements Mailer {
  /** @param from the `From:` address, e.g. `Specbase <no-reply@docs.example.com>` */
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const date = this.now();
    const id = randomUUID();
    const name = `${date.toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
    const domain = /@([^>\s]+)>?$/.exec(this.from)?.[1] ?? 'localhost';
    const text = [
      `From: ${header(this.from)}`,
      `To: ${header(message.to)}`,
      `Message-ID: <${id}@${domain}>`,
      `Subject: ${header(message.subject)}`,
      `Date: ${date.toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      message.text.replace(/\r?\n/g, '\r\n'),
      '',
    ].join('\r\n');
    const temporary = join(this.dir, `.${name}.tmp`);
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, join(this.dir, name));
  }
}
