import { expect, test } from 'vitest';
import { clientCounts, clientLabel } from './clientCounts';
import { clientOf } from './clientOf';

const ANDROID_PHONE = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

test('a label tells Chrome on an Android phone from Chrome on Windows, and names a bot as one', () => {
  expect(clientLabel(clientOf(ANDROID_PHONE))).toBe('Chrome 131 · Android · mobile');
  expect(clientLabel(clientOf(WINDOWS))).toBe('Chrome 131 · Windows · desktop');
  expect(clientLabel(clientOf(GOOGLEBOT))).toBe('Googlebot 2 · bot');
  expect(clientLabel(clientOf('curl/8.11.0'))).toBe('curl 8 · bot');
  expect(clientLabel(clientOf(''))).toBe('Unknown');
});

test('user agents fold into counts per label, most first, ties by label', () => {
  const firefox = (version: string) => `Mozilla/5.0 (X11; Linux x86_64; rv:${version}) Gecko/20100101 Firefox/${version}`;
  expect(
    clientCounts([
      { value: firefox('128.0'), reports: 2 },
      { value: WINDOWS, reports: 1 },
      { value: ANDROID_PHONE, reports: 3 },
      { value: firefox('128.1'), reports: 1 },
      { value: '', reports: 1 },
    ]),
  ).toEqual([
    { browser: 'Chrome 131 · Android · mobile', reports: 3 },
    { browser: 'Firefox 128 · Linux · desktop', reports: 3 },
    { browser: 'Chrome 131 · Windows · desktop', reports: 1 },
    { browser: 'Unknown', reports: 1 },
  ]);
});
