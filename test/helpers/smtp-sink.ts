import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A real SMTP server on loopback that keeps every message it accepts, parsed by mailparser. */
export interface SmtpSink {
  port: number;
  /** smtp://… for SMTP_URL (with the given credentials, and TLS checks off for the self-signed STARTTLS case). */
  url: string;
  messages: ParsedMail[];
  /** For each message, whether its conversation had switched to TLS and who had signed in with AUTH. */
  sessions: Array<{ secure: boolean; user: string | undefined }>;
  /** Refuses connections until `start` again (the port stays the same). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves once `count` messages have arrived (polls; rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
}

export interface SinkOptions {
  /** Require AUTH PLAIN/LOGIN with these credentials. */
  auth?: { user: string; pass: string };
  /** Offer STARTTLS (the library's built-in self-signed certificate) and require it before AUTH. */
  startTls?: boolean;
  port?: number;
}

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const sessions: SmtpSink['sessions'] = [];
  const serverOptions: SMTPServerOptions = {
    secure: false,
    disabledCommands: [...(options.auth ? [] : ['AUTH']), ...(options.startTls ? [] : ['STARTTLS'])],
    authOptional: !options.auth,
    allowInsecureAuth: !options.startTls,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          sessions.push({
            secure: Boolean(session.secure),
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  };
  let server: SMTPServer | undefined;
  let port = options.port ?? 0;
  const start = async () => {
    server = new SMTPServer(serverOptions);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };
  await start();
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  const sink: SmtpSink = {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}${options.startTls ? '?tls.rejectUnauthorized=false' : '?ignoreTLS=true'}`,
    messages,
    sessions,
    start,
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async waitFor(count, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} emails, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return messages;
    },
  };
  return sink;
}
