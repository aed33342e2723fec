import { expect, test } from 'vitest';
import { byWindows, windowCap } from './blockedLoadRows';

test('the failed loads are found by windows when violations come in bursts, by probe when they are spread out', () => {
  expect(byWindows(6, 20, 100_000)).toBe(true);
  expect(byWindows(8_640, 50, 100_000)).toBe(false);
  expect(byWindows(1, 1, 3)).toBe(false);
  expect(byWindows(1, 1, 4)).toBe(true);
});

test('windows are counted only as far as they could make windows the cheaper way', () => {
  expect(windowCap(100_000, 20)).toBe(1668);
  expect(byWindows(windowCap(100_000, 20), 20, 100_000)).toBe(false);
  expect(windowCap(10, 0)).toBe(5);
});
