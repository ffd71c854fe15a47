import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { z } from 'zod';

/**
 * Settings of the platform's one mail transport. A service that sends mail spreads this into its config.
 * SMTP_URL is nodemailer's connection URL: smtp://user:pass@host:587 (STARTTLS when offered) or
 * smtps://user:pass@host:465 (TLS from the start). Unset, mail is written to DATA_DIR/outbox instead.
 */
export const mailConfigShape = {
  /**
   * Mail (invitations, reminders, result notices, password resets) goes through this SMTP server:
   * `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. Unset, `pnpm start` runs
   * the embedded mailbox and points SMTP_URL at it, and a service started on its own writes `.eml` files to
   * DATA_DIR/outbox.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of every mail. */
  MAIL_FROM: z.string().min(3).default('Exam Platform <no-reply@localhost>'),
};

export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type MailReceipt = { via: 'smtp'; messageId: string } | { via: 'outbox'; path: string };
export type Mailer = { send(message: MailMessage): Promise<MailReceipt>; close(): void };

export type MailerOptions = {
  smtpUrl?: string | undefined;
  from: string;
  /** Where messages go when there is no SMTP server: DATA_DIR/outbox. */
  outboxDir: string;
  log: { info(obj: object, msg: string): void };
};

/**
 * Sends through SMTP when SMTP_URL is set. Without it (the embedded default of `pnpm start`) each message
 * is written as an .eml file to the outbox and its path logged, so a local user can still open a reset
 * link; the file is readable by its owner only, since it may hold such a link.
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: opts.from, ...message });
        return { via: 'smtp', messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      await mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const path = join(opts.outboxDir, name);
      await writeFile(path, info.message as Buffer, { mode: 0o600 });
      opts.log.info({ path, to: message.to, subject: message.subject }, 'mail written to the outbox (SMTP_URL unset)');
      return { via: 'outbox', path };
    },
    close: () => transport.close(),
  };
}
