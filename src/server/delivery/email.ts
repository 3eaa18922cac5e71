// E-mail over SMTP (nodemailer), configured by one URL: smtps://user:pass@host[:465] (TLS from the
// start) or smtp://user:pass@host[:587] (STARTTLS when the server offers it). A small pool of
// connections per process, reused; every wait has a time-out well inside the delivery lease.
import nodemailer from 'nodemailer';
import type { OutboxRow, Outcome, Transport } from './transport.ts';

export interface EmailSettings {
  /** SMTP_URL */
  url: string;
  /** SMTP_FROM: `Coinvest <no-reply@example.com>` or a bare address. */
  from: string;
}

const TIMEOUT_MS = 15_000;

export function emailTransport({ url, from }: EmailSettings): Transport & { close(): void } {
  const mailer = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 3,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  return {
    async send(row: OutboxRow): Promise<Outcome> {
      try {
        await mailer.sendMail({
          from,
          to: row.target,
          subject: row.subject,
          text: row.body,
          html: row.html ?? undefined,
        });
        return { sent: true };
      } catch (error) {
        return smtpFailure(error);
      }
    },
    close: () => mailer.close(),
  };
}

/**
 * A 5xx answer (no such mailbox, refused for good) is not tried again; a 4xx answer (greylisting,
 * mailbox busy), a refused or broken connection, a time-out or a TLS hitch are.
 */
export function smtpFailure(error: unknown): Outcome {
  const { responseCode, code, message } = (error ?? {}) as { responseCode?: number; code?: string; message?: string };
  const text = [code, message ?? String(error)].filter(Boolean).join(': ');
  if (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH')
    return { sent: false, retry: false, error: text };
  return { sent: false, retry: true, error: text };
}
