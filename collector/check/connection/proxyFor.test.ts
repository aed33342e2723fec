import { expect, test } from 'vitest';
import { proxyFor, proxyName } from './proxyFor';

const https = { host: 'collector.example', port: 443, secure: true };
const http = { host: 'collector.example', port: 80, secure: false };

test('HTTPS_PROXY for https, HTTP_PROXY for http; the lower-case forms win, as curl reads them', () => {
  const env = { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'plain:8080' };
  expect(proxyFor(https, env)).toMatchObject({ from: 'https_proxy', url: new URL('http://lower:3128') });
  expect(proxyFor(http, env)).toMatchObject({ from: 'HTTP_PROXY', url: new URL('http://plain:8080') });
  expect(proxyFor(https, {})).toBeUndefined();
});

test('NO_PROXY exempts hosts, their subdomains, ports and addresses, or everything with *', () => {
  const env = (noProxy: string) => ({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: noProxy });
  expect(proxyFor(https, env('example'))).toBeUndefined();
  expect(proxyFor(https, env('.example'))).toBeUndefined();
  expect(proxyFor(https, env('other.example, collector.example'))).toBeUndefined();
  expect(proxyFor(https, env('collector.example:443'))).toBeUndefined();
  expect(proxyFor(https, env('*'))).toBeUndefined();
  expect(proxyFor(https, env('collector.example:8443'))).toBeDefined();
  expect(proxyFor(https, env('lector.example'))).toBeDefined();
  expect(proxyFor({ host: '127.0.0.1', port: 443, secure: true }, env('127.0.0.1'))).toBeUndefined();
  expect(proxyFor({ host: '127.0.0.10', port: 443, secure: true }, env('127.0.0.1'))).toBeDefined();
});

test('a proxy the check cannot use is a message; the printed name hides credentials', () => {
  expect(proxyFor(https, { HTTPS_PROXY: 'socks5://proxy:1080' })).toContain('supports http:// proxies');
  const proxy = proxyFor(https, { HTTPS_PROXY: 'http://me:secret@proxy.corp:3128' });
  expect(typeof proxy == 'object' && proxyName(proxy)).toBe('http://proxy.corp:3128 (HTTPS_PROXY)');
});
