import { oneLine } from './text';

/** An outcome's error line's bound: what a deliveries list shows, not a receiver's whole page. */
export const ERROR_MAX = 300;

/**
 * What one try of a delivery came to (docs/alerts.md, "Retries"): `sent`; `retry`, when a later try
 * may succeed (a timeout, a connection error, a 5xx or 429, a temporary SMTP reply); `fail`, when
 * the same request would be refused again (another 4xx, a redirect, a refused target, a permanent
 * SMTP reply). `error` is one bounded line for the deliveries list.
 */
export type DeliveryOutcome =
  | { status: 'sent'; code?: number | undefined }
  | { status: 'retry'; error: string; code?: number | undefined; retryAfterSeconds?: number | undefined }
  | { status: 'fail'; error: string; code?: number | undefined };

/**
 * The outcome of an HTTP answer's status: 2xx sent, 429 and 5xx retry, the rest (3xx: redirects
 * are not followed; 4xx) fail.
 *
 * @example
 * httpOutcome(503, 'Service Unavailable'); // { status: 'retry', error: 'HTTP 503: Service Unavailable', code: 503 }
 */
export const httpOutcome = (status: number, detail: string, retryAfterSeconds?: number): DeliveryOutcome => {
  if (status >= 200 && status < 300) return { status: 'sent', code: status };
  const error = oneLine(`HTTP ${status}${detail ? `: ${detail}` : ''}`, ERROR_MAX);
  if (status == 429 || status >= 500) return { status: 'retry', error, code: status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
  return { status: 'fail', error, code: status };
};

/** Nodemailer's codes for a message that no try can send: it has no recipient, or the transport is misconfigured. */
const PERMANENT_SMTP_CODES = new Set(['EENVELOPE', 'ECONFIG', 'ENOAUTH']);

/**
 * The outcome of an SMTP error (RFC 5321: a 5yz reply is a permanent refusal, a 4yz one a
 * temporary one). An error with no reply (the connection was refused or dropped, a timeout) is
 * retried; a message with no recipient or a transport without credentials is not.
 *
 * @example
 * smtpOutcome({ responseCode: 550, message: 'No such user' }); // { status: 'fail', error: 'SMTP 550: No such user', code: 550 }
 */
export const smtpOutcome = (error: { code?: string | undefined; responseCode?: number | undefined; message: string }): DeliveryOutcome => {
  const { responseCode } = error;
  if (responseCode !== undefined && responseCode >= 500) return { status: 'fail', error: oneLine(`SMTP ${responseCode}: ${error.message}`, ERROR_MAX), code: responseCode };
  if (responseCode !== undefined && responseCode >= 400) return { status: 'retry', error: oneLine(`SMTP ${responseCode}: ${error.message}`, ERROR_MAX), code: responseCode };
  const said = oneLine((error.code ? `${error.code}: ` : '') + error.message, ERROR_MAX);
  if (error.code && PERMANENT_SMTP_CODES.has(error.code)) return { status: 'fail', error: said };
  return { status: 'retry', error: said };
};
