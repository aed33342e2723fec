import fc from 'fast-check';
import { expect, test } from 'vitest';
import { reportedUrl } from '../testing/urlArbitraries';
import { reportUrl } from './reportUrl';

test.each([
  ['https://cdn.example.net:443/x.png', 'https://cdn.example.net/x.png'],
  ['http://cdn.example.net:80/x.png', 'http://cdn.example.net/x.png'],
  ['wss://live.example:443/socket', 'wss://live.example/socket'],
  ['HTTPS://CDN.example.net:443', 'HTTPS://CDN.example.net'],
  ['https://cdn.example.net:8443/x.png', 'https://cdn.example.net:8443/x.png'],
  ['http://cdn.example.net:443/x.png', 'http://cdn.example.net:443/x.png'],
  ['https://[::1]:443/x', 'https://[::1]/x'],
  ['https://127.0.0.1:18142/cart?step=2#top', 'https://127.0.0.1:18142/cart?step=2'],
  ['https://user:p%40ss@shop.example/a', 'https://shop.example/a'],
  ['https://a@b@shop.example:443/a', 'https://shop.example/a'],
  ['https://shop.example', 'https://shop.example'],
  ['https://shop.example/a b?q=%zz', 'https://shop.example/a b?q=%zz'],
  ['ftp://files.example:21/x', 'ftp://files.example:21/x'],
])('%s is reported as %s', (sent, stored) => {
  expect(reportUrl(sent)).toBe(stored);
});

test.each(['inline', 'eval', 'wasm-eval', 'self', 'data', 'blob', '', 'data:image/png;base64,AA#x', 'blob:https://shop.example/1', 'about:blank'])(
  'a keyword or a URL without an authority is kept as sent: %j',
  (sent) => {
    expect(reportUrl(sent)).toBe(sent);
  },
);

test('for every URL of a special scheme: the same resource as the URL parser sees it, without credentials, fragment or default port; and idempotent', () => {
  fc.assert(
    fc.property(reportedUrl, (sent) => {
      fc.pre(URL.canParse(sent));
      const stored = reportUrl(sent);
      const parsed = new URL(sent);
      const expected = new URL(stored);
      expect(expected.host).toBe(parsed.host);
      expect(expected.pathname + expected.search).toBe(parsed.pathname + parsed.search);
      expect(expected.username + expected.password + expected.hash).toBe('');
      expect(stored).not.toContain('#');
      expect(stored).not.toMatch(/^(?:https|wss):\/\/[^/?#]*:443(?:[/?]|$)|^(?:http|ws):\/\/[^/?#]*:80(?:[/?]|$)/i);
      expect(reportUrl(stored)).toBe(stored);
    }),
    { numRuns: 300 },
  );
});
