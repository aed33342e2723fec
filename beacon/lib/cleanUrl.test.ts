import { expect, test } from 'vitest';
import { cleanUrl } from './cleanUrl';

test('credentials and the fragment never leave the page; the query does', () => {
  expect(cleanUrl('https://user:secret@shop.example/cart?step=2#access_token=xyz')).toBe('https://shop.example/cart?step=2');
});

test('values that are not URLs are kept as they are', () => {
  expect(cleanUrl('inline')).toBe('inline');
  expect(cleanUrl('')).toBe('');
});
