import { expect, test } from 'vitest';
import { blockedHostOf } from './blockedHost';

test('the blocked host: host for URLs, the keyword otherwise', () => {
  expect(blockedHostOf('https://cdn.example.net:8443/pixel.gif')).toBe('cdn.example.net:8443');
  expect(blockedHostOf('inline')).toBe('inline');
  expect(blockedHostOf('eval')).toBe('eval');
  expect(blockedHostOf('data:image/png;base64,AAAA')).toBe('data');
  expect(blockedHostOf('')).toBe('');
});
