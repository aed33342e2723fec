import { describe, expect, test } from 'vitest';
import { isInApp } from './isInApp';

describe('isInApp', () => {
  test.each([
    ['https://shop.example/app.min.js', undefined, false, true],
    ['blob:https://shop.example/0b0e', undefined, false, true],
    ['https://shop.example/app.min.js', '../node_modules/react-dom/index.js', false, false],
    ['https://shop.example/node_modules/x/y.js', undefined, false, false],
    ['https://cdn.jsdelivr.net/npm/vue@3/dist/vue.js', undefined, false, false],
    ['chrome-extension://abcdef/content.js', undefined, false, false],
    ['https://shop.example/app.min.js', 'src/cart.ts', true, false],
    [null, undefined, false, false],
  ])('%s (%s, ignored %s): %s', (file, original, ignored, expected) => {
    expect(isInApp(file, original, ignored)).toBe(expected);
  });
});

describe('isInApp reads the host as a URL parser would', () => {
  test.each([
    ['https://UNPKG.com:443/react.js', false],
    ['https://user@unpkg.com/react.js', false],
    ['https://unpkg.com.shop.example/app.js', true],
    ['https://shop.example/?from=unpkg.com', true],
  ])('%s: %s', (file, expected) => {
    expect(isInApp(file)).toBe(expected);
  });
});
