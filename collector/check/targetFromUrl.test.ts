import { expect, test } from 'vitest';
import { targetFromUrl } from './targetFromUrl';

test.each([
  ['collector.example', { apiBase: 'https://collector.example/api', host: 'collector.example', port: 443, secure: true }],
  ['https://collector.example', { apiBase: 'https://collector.example/api', host: 'collector.example', port: 443, secure: true }],
  ['https://collector.example/api/', { apiBase: 'https://collector.example/api', host: 'collector.example', port: 443, secure: true }],
  ['https://app.example/monitor/api', { apiBase: 'https://app.example/monitor/api', host: 'app.example', port: 443, secure: true }],
  ['collector.example:8443/api', { apiBase: 'https://collector.example:8443/api', host: 'collector.example', port: 8443, secure: true }],
  ['http://127.0.0.1:8787/api', { apiBase: 'http://127.0.0.1:8787/api', host: '127.0.0.1', port: 8787, secure: false }],
  ['https://[::1]:9000', { apiBase: 'https://[::1]:9000/api', host: '::1', port: 9000, secure: true }],
])('%s is the API base (spec section 1: it ends with /api) or a host', (input, expected) => {
  expect(targetFromUrl(input)).toEqual(expected);
});

test.each([
  ['https://collector.example/ingest', 'whose path ends with /api'],
  ['https://collector.example/apis', 'whose path ends with /api'],
  ['ftp://collector.example/api', 'over https'],
  ['https://user:secret@collector.example/api', 'no credentials'],
  ['https://collector.example/api?x=1', 'no query'],
  ['https://exa mple/api', 'not a URL'],
])('%s is refused with a message', (input, message) => {
  expect(targetFromUrl(input)).toContain(message);
});
