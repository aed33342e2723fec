import { describe, expect, test } from 'vitest';
import { alertHeadline, type Alert } from './alert';
import { ALERT_RATE, digestAlert, planDigest } from './digest';
import { httpOutcome, smtpOutcome } from './outcome';
import { MAX_TRIES, nextAttempt } from './schedule';

const now = new Date('2026-11-27T19:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms);

describe('nextAttempt', () => {
  test('30 s, 2 min, 10 min, 30 min, 2 h after the first five failed tries; given up after the sixth', () => {
    const delays = Array.from({ length: MAX_TRIES }, (_, index) => nextAttempt(index + 1, now)?.getTime());
    expect(delays.map((time) => (time === undefined ? undefined : time - now.getTime()))).toEqual([30_000, 120_000, 600_000, 1_800_000, 7_200_000, undefined]);
    expect(MAX_TRIES).toBe(6);
    expect(nextAttempt(0, now)).toBeUndefined();
  });

  test('a Retry-After pushes the time later, up to the longest delay, never earlier', () => {
    expect(nextAttempt(1, now, 90)).toEqual(at(90_000));
    expect(nextAttempt(1, now, 5)).toEqual(at(30_000));
    expect(nextAttempt(1, now, 86_400)).toEqual(at(7_200_000));
  });
});

const alert = (index: number): Alert => ({
  id: `al_${index}`,
  kind: 'new_issue',
  site: { key: 'shop', name: 'Shop' },
  issue: { fingerprint: `f${index}`, title: `Error ${index}` },
  url: `https://b.example/sites/shop/errors/f${index}`,
  created_at: at(index * 1000).toISOString(),
});

describe('the digest', () => {
  const waiting = Array.from({ length: 14 }, (_, index) => alert(index));

  test('past 10 alerts in 10 minutes, the rest are held for one digest', () => {
    const plan = planDigest({ waiting, sentAt: [], lastDigestAt: undefined, now });
    expect(plan.send.map(({ id }) => id)).toEqual(waiting.slice(0, 10).map(({ id }) => id));
    expect(plan.held).toHaveLength(4);
    expect(plan.digestAt).toEqual(now);
  });

  test('alerts sent within the window take places; older ones do not', () => {
    const sentAt = [at(-ALERT_RATE.windowMs), at(-60_000), at(-1_000), at(-2_000)];
    const plan = planDigest({ waiting: waiting.slice(0, 8), sentAt, lastDigestAt: undefined, now });
    expect(plan.send).toHaveLength(7);
    expect(plan.held.map(({ id }) => id)).toEqual(['al_7']);
  });

  test('under the rate nothing is held; a digest waits a window after the last one', () => {
    expect(planDigest({ waiting: waiting.slice(0, 3), sentAt: [], lastDigestAt: undefined, now })).toEqual({ send: waiting.slice(0, 3), held: [], digestAt: undefined });
    const plan = planDigest({ waiting, sentAt: [], lastDigestAt: at(-120_000), now });
    expect(plan.digestAt).toEqual(at(ALERT_RATE.windowMs - 120_000));
  });

  test('the digest counts every held alert and names the first ten', () => {
    const digest = digestAlert(waiting, { id: 'dg_1', url: 'https://b.example/sites/shop', now });
    expect(digest).toMatchObject({ id: 'dg_1', kind: 'digest', site: { key: 'shop', name: 'Shop' }, url: 'https://b.example/sites/shop' });
    expect(digest.digest).toEqual({ count: 14, headlines: waiting.slice(0, 10).map(alertHeadline), since: waiting[0]!.created_at });
    expect(alertHeadline(digest)).toBe('14 more alerts on Shop');
    expect(() => digestAlert([], { id: 'x', url: '', now })).toThrow(/at least one/);
  });
});

describe('outcomes', () => {
  test('HTTP: 2xx sent; 429 and 5xx retry; redirects and other 4xx fail', () => {
    expect(httpOutcome(204, '')).toEqual({ status: 'sent', code: 204 });
    expect(httpOutcome(429, 'slow down', 60)).toEqual({ status: 'retry', error: 'HTTP 429: slow down', code: 429, retryAfterSeconds: 60 });
    expect(httpOutcome(502, '')).toMatchObject({ status: 'retry', code: 502 });
    expect(httpOutcome(301, 'to https://elsewhere')).toMatchObject({ status: 'fail', code: 301 });
    expect(httpOutcome(404, 'Not Found\r\nX: y')).toEqual({ status: 'fail', error: 'HTTP 404: Not Found X: y', code: 404 });
  });

  test('SMTP: a 5xx reply fails, a 4xx one retries, no reply retries unless the message or transport cannot work', () => {
    expect(smtpOutcome({ responseCode: 550, message: 'No such user' })).toEqual({ status: 'fail', error: 'SMTP 550: No such user', code: 550 });
    expect(smtpOutcome({ responseCode: 451, message: 'Try later' })).toMatchObject({ status: 'retry', code: 451 });
    expect(smtpOutcome({ code: 'ESOCKET', message: 'connect ECONNREFUSED 127.0.0.1:1' })).toEqual({ status: 'retry', error: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:1' });
    expect(smtpOutcome({ code: 'EENVELOPE', message: 'No recipients defined' })).toMatchObject({ status: 'fail' });
  });
});
