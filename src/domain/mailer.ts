/** One email as it leaves: rendered, addressed, nothing else. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where a reply goes (a quote's sender), when not to the From address. */
  replyTo?: string;
  /** Files it carries (a sent document's PDF). */
  attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/**
 * Where email goes out (src/mail/smtp-mailer.ts on SMTP_URL). `send` resolves once the receiving server has
 * accepted the message and rejects with an error whose message is safe to show and keep (no password in it).
 */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  /** `smtp.example.com:587`, for the Notifications screen and the banner; never the credentials. */
  readonly server: string;
}
