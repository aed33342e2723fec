import fc from 'fast-check';
import { expect, test } from 'vitest';
import { hostileBlockedUri } from '../testing/cspArbitraries';
import { blockedHostOf, classifyBlockedUri } from './blockedHost';

test('the blocked host: host for URLs, the keyword otherwise', () => {
  expect(blockedHostOf('https://cdn.example.net:8443/pixel.gif')).toBe('cdn.example.net:8443');
  expect(blockedHostOf('inline')).toBe('inline');
  expect(blockedHostOf('eval')).toBe('eval');
  expect(blockedHostOf('data:image/png;base64,AAAA')).toBe('data');
  expect(blockedHostOf('')).toBe('');
});

test.each([
  // Every keyword browsers send, kept and classified (docs/grouping.md, "CSP violations"), never mistaken for a host.
  ['inline', 'keyword', 'inline'],
  ['eval', 'keyword', 'eval'],
  ['wasm-eval', 'keyword', 'wasm-eval'],
  ['trusted-types-sink', 'keyword', 'trusted-types-sink'],
  ['trusted-types-policy', 'keyword', 'trusted-types-policy'],
  ['self', 'keyword', 'self'],
  ["'self'", 'keyword', 'self'],
  ['EVAL', 'keyword', 'eval'],
  ['data', 'scheme', 'data'],
  ['blob', 'scheme', 'blob'],
  ['', 'empty', ''],
  ['   ', 'empty', ''],
  [undefined, 'empty', ''],
  ['data:image/png;base64,AA', 'scheme', 'data'],
  ['blob:https://shop.example/1', 'scheme', 'blob'],
  ['https://cdn.example.net/x.png', 'url', 'cdn.example.net'],
  ['https://cdn.example.net:443/x.png', 'url', 'cdn.example.net'],
  ['wss://live.example:8443/s', 'url', 'live.example:8443'],
  // A host named like a keyword is a host.
  ['https://eval/x.js', 'url', 'eval'],
  ['http://inline.example/x.js', 'url', 'inline.example'],
  ['cdn.example.net', 'other', 'cdn.example.net'],
  ['not a url: at all', 'other', 'not a url'],
] as const)('%j is a %s, grouped as %j', (sent, kind, host) => {
  expect(classifyBlockedUri(sent)).toEqual({ kind, host });
});

test('any blocked URI gets a kind and a bounded group name, the same as blockedHostOf', () => {
  fc.assert(
    fc.property(fc.oneof(hostileBlockedUri, fc.string()), (sent) => {
      const { kind, host } = classifyBlockedUri(sent);
      expect(['url', 'keyword', 'scheme', 'empty', 'other']).toContain(kind);
      expect(host).toBe(blockedHostOf(sent));
      if (kind != 'url') expect(host.length).toBeLessThanOrEqual(64);
      if (kind == 'empty') expect(host).toBe('');
      if (kind == 'url') expect(host).toBe(new URL(sent.trim()).host);
    }),
  );
});
