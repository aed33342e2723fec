import { expect, test } from 'vitest';
import { cleanUrl } from './cleanUrl';

test('credentials and the fragment never leave the page; the query does', () => {
  expect(cleanUrl('https://user:secret@shop.example/cart?step=2#access_token=xyz')).toBe('https://shop.example/cart?step=2');
  // The last @ before the path ends the credentials, as URL parsing has it.
  expect(cleanUrl('https://a@b:c@shop.example/')).toBe('https://shop.example/');
  expect(cleanUrl('https://shop.example/#/items(1)?tab=2')).toBe('https://shop.example/');
});

test('values that are not URLs are kept as they are', () => {
  expect(cleanUrl('inline')).toBe('inline');
  expect(cleanUrl('eval')).toBe('eval');
  expect(cleanUrl('')).toBe('');
  expect(cleanUrl("script-src 'self' https://cdn.example; report-uri /csp")).toBe("script-src 'self' https://cdn.example; report-uri /csp");
});

test('in a Chromium stack, fragments and credentials go and line:column stays; private method names stay', () => {
  const stack = [
    "TypeError: Cannot read properties of null (reading 'y')",
    '    at Cart.#total (https://u:p@shop.example/app.js#v=2:1:6)',
    '    at eval (eval at run (https://shop.example/cart?step=2#top:4:3), <anonymous>:1:1)',
    '    at https://shop.example/cart?step=2#top:14:15',
  ].join('\n');
  expect(cleanUrl(stack)).toBe(
    [
      "TypeError: Cannot read properties of null (reading 'y')",
      '    at Cart.#total (https://shop.example/app.js:1:6)',
      '    at eval (eval at run (https://shop.example/cart?step=2:4:3), <anonymous>:1:1)',
      '    at https://shop.example/cart?step=2:14:15',
    ].join('\n'),
  );
});

test('in Firefox and Safari stacks too (fixture firefox-esr-153/beacon.json)', () => {
  expect(cleanUrl('@https://127.0.0.1:18142/cart?step=2#top:14:15\n')).toBe('@https://127.0.0.1:18142/cart?step=2:14:15\n');
  expect(cleanUrl('checkout@https://shop.example/a.js#x:1:2\nglobal code@https://shop.example/cart:14:28')).toBe(
    'checkout@https://shop.example/a.js:1:2\nglobal code@https://shop.example/cart:14:28',
  );
});

test('a message naming a URL loses its fragment too', () => {
  expect(cleanUrl('Failed to fetch dynamically imported module: https://shop.example/chunk.js#x')).toBe(
    'Failed to fetch dynamically imported module: https://shop.example/chunk.js',
  );
});
