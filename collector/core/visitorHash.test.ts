import { randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import { visitorDay, visitorHash } from './visitorHash';

const client = { siteKey: 'shop', address: '203.0.113.7', userAgent: 'Mozilla/5.0 Firefox/128.0' };

test('a visitor is 16 hex characters, the same for one client, salt and site', () => {
  const salt = randomBytes(32);
  expect(visitorHash(salt, client)).toMatch(/^[0-9a-f]{16}$/);
  expect(visitorHash(salt, client)).toBe(visitorHash(Buffer.from(salt), { ...client }));
});

test('another address, user agent, site or salt is another visitor', () => {
  const salt = randomBytes(32);
  const one = visitorHash(salt, client);
  expect(visitorHash(salt, { ...client, address: '203.0.113.8' })).not.toBe(one);
  expect(visitorHash(salt, { ...client, userAgent: 'Mozilla/5.0 Chrome/131.0' })).not.toBe(one);
  expect(visitorHash(salt, { ...client, siteKey: 'blog' })).not.toBe(one);
  expect(visitorHash(randomBytes(32), client)).not.toBe(one);
});

test('fields do not run into each other', () => {
  const salt = randomBytes(32);
  expect(visitorHash(salt, { siteKey: 'a', address: 'b c', userAgent: '' })).not.toBe(visitorHash(salt, { siteKey: 'a', address: 'b', userAgent: 'c' }));
});

test('the day is the UTC day, whatever the hour', () => {
  expect(visitorDay(Date.UTC(2026, 0, 2))).toBe(visitorDay(Date.UTC(2026, 0, 2, 23, 59, 59, 999)));
  expect(visitorDay(Date.UTC(2026, 0, 3))).toBe(visitorDay(Date.UTC(2026, 0, 2)) + 1);
});
