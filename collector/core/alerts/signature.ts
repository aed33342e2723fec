import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a receiver lets a request's timestamp be from its own clock, by default: five minutes. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/**
 * The signature of one webhook request (docs/alerts.md, "Verifying a webhook"):
 * `sha256=` and the hex HMAC-SHA256, under the channel's secret, of the timestamp, a dot and the
 * body exactly as sent. The timestamp is in the signed text, so a captured request cannot be
 * replayed later with a new one.
 *
 * @example
 * signWebhook('s3cret', 1700000000, '{"id":"1"}'); // 'sha256=5e1c...'
 */
export const signWebhook = (secret: string, timestamp: number | string, body: string): string =>
  'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/**
 * The headers of one webhook request: the delivery's idempotency key, the time of this try (unix
 * seconds), and the signature when the channel has a secret.
 *
 * @example
 * webhookHeaders({ delivery: 'a1', body, secret: 's3cret', now: new Date() });
 * // { 'Content-Type': 'application/json', 'Sitebeacon-Delivery': 'a1', 'Sitebeacon-Timestamp': '1700000000', 'Sitebeacon-Signature': 'sha256=...' }
 */
export const webhookHeaders = (options: { delivery: string; body: string; secret?: string | undefined; now: Date }): Record<string, string> => {
  const timestamp = String(Math.floor(options.now.getTime() / 1000));
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'sitebeacon-alerts',
    'Sitebeacon-Delivery': options.delivery,
    'Sitebeacon-Timestamp': timestamp,
    ...(options.secret ? { 'Sitebeacon-Signature': signWebhook(options.secret, timestamp, options.body) } : {}),
  };
};

/** Why a request does not verify. */
export type WebhookRejection = 'missing_headers' | 'stale_timestamp' | 'bad_signature';

/**
 * What a receiver checks (docs/alerts.md, "Verifying a webhook"): that the timestamp is within
 * `toleranceSeconds` of `now`, and that the signature is the one `secret` gives for the timestamp
 * and the raw body, compared in constant time. `{ ok: true }`, or why not.
 *
 * @example
 * verifyWebhook('s3cret', { timestamp: req.headers['sitebeacon-timestamp'], signature: req.headers['sitebeacon-signature'], body: rawBody });
 */
export const verifyWebhook = (
  secret: string,
  request: { timestamp: string | null | undefined; signature: string | null | undefined; body: string },
  options: { now?: Date; toleranceSeconds?: number } = {},
): { ok: true } | { ok: false; reason: WebhookRejection } => {
  const { timestamp, signature, body } = request;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'missing_headers' };
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS)) return { ok: false, reason: 'stale_timestamp' };
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  // The lengths differ only for a malformed header; timingSafeEqual needs them equal.
  if (given.length != expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  return { ok: true };
};
