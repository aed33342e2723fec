// URL matching of CSP3 (#match-url-to-source-list, #match-url-to-source-expression), with the
// examples the specification gives in its text.
import { describe, expect, test } from 'vitest';
import { schemePartMatches, urlMatchesExpression, urlMatchesSourceList } from './urlMatchesExpression';

const httpsPage = new URL('https://example.com/page');
const httpPage = new URL('http://example.com/page');
const matches = (url: string, expression: string, page = httpsPage, redirects = 0) =>
  urlMatchesExpression(new URL(url), expression, page, redirects);

describe('"*"', () => {
  test('matches any HTTP(S) URL, and URLs of the page\'s own scheme, but not data: or blob:', () => {
    expect(matches('https://anything.example/x', '*')).toBe(true);
    expect(matches('http://anything.example/x', '*')).toBe(true);
    expect(matches('data:image/png;base64,AA', '*')).toBe(false);
    expect(matches('blob:https://example.com/1234', '*')).toBe(false);
    expect(matches('ftp://files.example/x', '*')).toBe(false);
    expect(matches('ftp://files.example/x', '*', new URL('ftp://files.example/'))).toBe(true);
  });
});

describe('scheme-source', () => {
  test('"https:" matches any https URL; "http:" upgrades to https but never the other way (#match-schemes)', () => {
    expect(matches('https://a.example/', 'https:')).toBe(true);
    expect(matches('https://a.example/', 'http:')).toBe(true);
    expect(matches('http://a.example/', 'https:')).toBe(false);
    expect(matches('data:text/plain,hi', 'data:')).toBe(true);
    expect(matches('wss://a.example/', 'ws:')).toBe(true);
    expect(schemePartMatches('ws', 'https')).toBe(true);
    expect(schemePartMatches('wss', 'http')).toBe(false);
  });
});

describe('host-source', () => {
  test('"example.com" matches the host on the page\'s scheme or its secure upgrade', () => {
    expect(matches('https://example.com/script.js', 'example.com')).toBe(true);
    expect(matches('http://example.com/script.js', 'example.com')).toBe(false);
    expect(matches('http://example.com/script.js', 'example.com', httpPage)).toBe(true);
    expect(matches('https://example.com/script.js', 'example.com', httpPage)).toBe(true);
    expect(matches('https://www.example.com/', 'example.com')).toBe(false);
  });

  test('"*.example.com" matches subdomains at any depth, never example.com itself', () => {
    expect(matches('https://www.example.com/', '*.example.com')).toBe(true);
    expect(matches('https://a.b.example.com/', '*.example.com')).toBe(true);
    expect(matches('https://example.com/', '*.example.com')).toBe(false);
    expect(matches('https://notexample.com/', '*.example.com')).toBe(false);
    expect(matches('https://WWW.EXAMPLE.COM/', '*.Example.Com')).toBe(true);
  });

  test('ports: none means the default, "*" any, and http://host:80 upgrades to https://host:443', () => {
    expect(matches('https://example.com:8443/', 'https://example.com')).toBe(false);
    expect(matches('https://example.com:8443/', 'https://example.com:8443')).toBe(true);
    expect(matches('https://example.com:8443/', 'https://example.com:*')).toBe(true);
    expect(matches('https://example.com/', 'https://example.com:443')).toBe(true);
    expect(matches('http://example.com/', 'http://example.com:80')).toBe(true);
    expect(matches('https://example.com/', 'http://example.com:80')).toBe(true);
  });

  test('paths: an exact file, or a directory prefix ending in "/"; ignored after a redirect', () => {
    // The specification's own example: script-src https://cdn.example.com/scripts/
    expect(matches('https://cdn.example.com/scripts/a.js', 'https://cdn.example.com/scripts/')).toBe(true);
    expect(matches('https://cdn.example.com/scripts/sub/b.js', 'https://cdn.example.com/scripts/')).toBe(true);
    expect(matches('https://cdn.example.com/other/a.js', 'https://cdn.example.com/scripts/')).toBe(false);
    expect(matches('https://example.com/path/to/file.js', 'https://example.com/path/to/file.js')).toBe(true);
    expect(matches('https://example.com/path/to/file.js2', 'https://example.com/path/to/file.js')).toBe(false);
    // Pieces compare percent-decoded: %61 is "a".
    expect(matches('https://example.com/dir/a.js', 'https://example.com/dir/%61.js')).toBe(true);
    expect(matches('https://cdn.example.com/other/a.js', 'https://cdn.example.com/scripts/', httpsPage, 1)).toBe(true);
  });

  test('IP literals never match, except 127.0.0.1 (#match-hosts)', () => {
    expect(matches('https://10.0.0.1/', 'https://10.0.0.1')).toBe(false);
    expect(matches('http://127.0.0.1:8080/', 'http://127.0.0.1:8080')).toBe(true);
  });
});

describe("'self'", () => {
  test('matches the page origin, and its https:/wss: variants even from an http page', () => {
    expect(matches('https://example.com/a.js', "'self'")).toBe(true);
    expect(matches('https://example.com/a.js', "'SELF'")).toBe(true);
    expect(matches('wss://example.com/live', "'self'")).toBe(true);
    expect(matches('http://example.com/a.js', "'self'")).toBe(false);
    expect(matches('https://example.com/a.js', "'self'", httpPage)).toBe(true);
    expect(matches('ws://example.com/live', "'self'", httpPage)).toBe(true);
    expect(matches('https://example.com:8443/a.js', "'self'")).toBe(false);
    expect(matches('https://other.example/a.js', "'self'")).toBe(false);
  });

  test('does not match blob: URLs of the page\'s own origin: browsers want blob: named', () => {
    expect(matches('blob:https://example.com/0f2b', "'self'")).toBe(false);
    expect(matches('blob:https://example.com/0f2b', 'blob:')).toBe(true);
  });
});

test('keywords, nonces and hashes match no URL; neither does garbage', () => {
  for (const expression of ["'unsafe-inline'", "'nonce-abc'", "'sha256-abc='", "'none'", 'a;b', '"self"', '']) {
    expect(matches('https://example.com/a.js', expression), expression).toBe(false);
  }
});

test("a source list: empty or a lone 'none' matches nothing, otherwise any expression is enough", () => {
  const url = new URL('https://cdn.example/a.js');
  expect(urlMatchesSourceList(url, [], httpsPage)).toBe(false);
  expect(urlMatchesSourceList(url, ["'none'"], httpsPage)).toBe(false);
  expect(urlMatchesSourceList(url, ["'self'", 'https://cdn.example'], httpsPage)).toBe(true);
  expect(urlMatchesSourceList(url, ["'self'"], httpsPage)).toBe(false);
});
