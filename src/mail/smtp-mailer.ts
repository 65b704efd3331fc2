import nodemailer from 'nodemailer';
import type { MailConfig } from '../config.js';
import type { Mailer, OutgoingEmail } from '../domain/mailer.js';

/** How long one SMTP conversation may take before the attempt counts as failed and is retried later. */
const TIMEOUT_MS = 20_000;

/**
 * Email over SMTP with nodemailer, from SMTP_URL (`smtp://` upgrades with STARTTLS when the server offers it,
 * `smtps://` is TLS from the first byte; query options such as `?tls.rejectUnauthorized=false` pass through). One
 * connection per email: notification email comes in ones and twos a minute, not in bulk.
 */
export function smtpMailer(config: MailConfig): Mailer {
  const url = new URL(config.smtpUrl);
  const password = decodeURIComponent(url.password);
  const transport = nodemailer.createTransport(
    { url: config.smtpUrl, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS },
    { from: config.from },
  );
  const { server } = config;
  return {
    server,
    async send(email: OutgoingEmail) {
      try {
        await transport.sendMail({
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          ...(email.replyTo ? { replyTo: email.replyTo } : {}),
          ...(email.attachments?.length
            ? {
                attachments: email.attachments.map((a) => ({
                  filename: a.filename,
                  contentType: a.contentType,
                  content: Buffer.from(a.content),
                })),
              }
            : {}),
        });
      } catch (error) {
        throw new Error(safeReason(error, password, server));
      }
    },
  };
}

/** The failure as one line a person can act on, never holding the password (some servers echo the AUTH line). */
function safeReason(error: unknown, password: string, server: string): string {
  const e = error as { message?: string; code?: string; responseCode?: number };
  let reason = e.message ?? String(error);
  if (password) reason = reason.split(password).join('***');
  reason = reason.replace(/\s+/g, ' ').trim().slice(0, 300);
  const hint =
    e.code === 'ECONNECTION' || e.code === 'ETIMEDOUT' || e.code === 'ESOCKET'
      ? ` (could not talk to ${server}; check SMTP_URL's host and port)`
      : e.code === 'EAUTH'
        ? ' (the SMTP server refused the user name or password in SMTP_URL)'
        : '';
  return `${reason}${hint}`;
}
