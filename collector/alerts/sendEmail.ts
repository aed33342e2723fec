import nodemailer, { type Transporter } from 'nodemailer';
import type { Alert } from '../core/alerts/alert';
import { emailHtml, emailSubject, emailText } from '../core/alerts/email';
import { smtpOutcome, type DeliveryOutcome } from '../core/alerts/outcome';

/** How alerts leave by mail: an SMTP transport and the `From` address (`serve --smtp-url`, `--mail-from`). */
export interface Mailer {
  transporter: Transporter;
  from: string;
}

/** An SMTP step's bound by default: a mail server that takes longer is tried again later. */
export const SMTP_TIMEOUT_MS = 15_000;

/**
 * The mailer for `--smtp-url` (`smtp://user:pass@host:587`, upgraded with STARTTLS when the server
 * offers it; `smtps://user:pass@host:465`, TLS from the first byte) and `--mail-from`. Nodemailer
 * opens a connection per message: alerts are few (docs/alerts.md, "The digest"), and a pooled
 * connection would outlive a mail server's idle timeout between them. Throws on a URL that is not
 * smtp: or smtps:.
 *
 * @example
 * const mailer = createMailer('smtps://alerts:secret@mail.shop.example:465', 'sitebeacon <alerts@shop.example>');
 */
export const createMailer = (smtpUrl: string, from: string, options: { timeoutMs?: number } = {}): Mailer => {
  const { protocol } = new URL(smtpUrl);
  if (protocol != 'smtp:' && protocol != 'smtps:') throw new Error(`--smtp-url is smtp://user:pass@host:port or smtps://..., not ${protocol}`);
  const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return { transporter, from };
};

/** A Message-ID from the alert's id: the same on every try, so a mail client can tell a retried copy. */
const messageId = (alert: Alert) => `<alert.${alert.id.replace(/[^\w.-]/g, '_')}@sitebeacon>`;

/**
 * Mails `alert` to `to`, once, and says what came of it (docs/alerts.md, "Email"): `sent` when the
 * server accepted it; `fail` on a permanent (5xx) reply; `retry` on a temporary (4xx) one, a refused
 * or dropped connection, a timeout. Text and HTML alternatives, as core/alerts/email.ts renders
 * them; no attachment, nothing fetched.
 *
 * @example
 * const outcome = await sendEmail(mailer, alert, 'owner@shop.example');
 */
export const sendEmail = async (mailer: Mailer, alert: Alert, to: string): Promise<DeliveryOutcome> => {
  try {
    await mailer.transporter.sendMail({
      from: mailer.from,
      to,
      subject: emailSubject(alert),
      text: emailText(alert),
      html: emailHtml(alert),
      messageId: messageId(alert),
      // RFC 3834: a machine wrote it, so auto-responders (out of office) stay quiet.
      headers: { 'Auto-Submitted': 'auto-generated' },
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    return { status: 'sent' };
  } catch (error) {
    const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string };
    return smtpOutcome({ code, responseCode, message: message ?? String(error) });
  }
};
