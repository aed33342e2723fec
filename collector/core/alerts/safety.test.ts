import { describe, expect, test } from 'vitest';
import { privateRange } from './privateAddress';
import { signWebhook, verifyWebhook, webhookHeaders } from './signature';

describe('signWebhook and verifyWebhook', () => {
  const now = new Date('2026-11-27T19:00:00Z');
  const body = '{"id":"al_1"}';

  test('the signature is sha256= and the hex HMAC of timestamp.body', () => {
    // Computed independently: printf '1700000000.{"id":"al_1"}' | openssl dgst -sha256 -hmac s3cret
    expect(signWebhook('s3cret', 1700000000, body)).toBe('sha256=053e23a78a725249ee9fd91ef85b445e9313a42bfd457f2b984d385c9469a980');
  });

  test('the headers carry the delivery, the timestamp and a signature that verifies', () => {
    const headers = webhookHeaders({ delivery: 'al_1', body, secret: 's3cret', now });
    expect(headers['Sitebeacon-Delivery']).toBe('al_1');
    expect(headers['Sitebeacon-Timestamp']).toBe(String(now.getTime() / 1000));
    const request = { timestamp: headers['Sitebeacon-Timestamp'], signature: headers['Sitebeacon-Signature'], body };
    expect(verifyWebhook('s3cret', request, { now })).toEqual({ ok: true });
    expect(webhookHeaders({ delivery: 'al_1', body, now })).not.toHaveProperty('Sitebeacon-Signature');
  });

  test('a changed body, another secret, an old timestamp or missing headers do not verify', () => {
    const timestamp = String(now.getTime() / 1000);
    const signature = signWebhook('s3cret', timestamp, body);
    expect(verifyWebhook('s3cret', { timestamp, signature, body: body + ' ' }, { now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook('other', { timestamp, signature, body }, { now })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyWebhook('s3cret', { timestamp, signature: 'sha256=00', body }, { now })).toEqual({ ok: false, reason: 'bad_signature' });
    const later = new Date(now.getTime() + 301_000);
    expect(verifyWebhook('s3cret', { timestamp, signature, body }, { now: later })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyWebhook('s3cret', { timestamp, signature, body }, { now: later, toleranceSeconds: 600 })).toEqual({ ok: true });
    expect(verifyWebhook('s3cret', { timestamp: undefined, signature, body }, { now })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifyWebhook('s3cret', { timestamp: '1e9', signature, body }, { now })).toEqual({ ok: false, reason: 'missing_headers' });
  });
});

describe('privateRange', () => {
  test.each([
    ['0.0.0.0', 'unspecified'],
    ['10.20.30.40', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::169.254.169.254', 'link_local'],
    ['2002:c0a8:0101::1', 'private'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['fe80::1%eth0', 'link_local'],
    ['ff02::1', 'multicast'],
    ['not-an-address', 'reserved'],
  ])('%s is %s', (address, range) => {
    expect(privateRange(address)).toBe(range);
  });

  test.each(['93.184.215.14', '8.8.8.8', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:db8::1'])('%s is public', (address) => {
    expect(privateRange(address)).toBeUndefined();
  });
});
