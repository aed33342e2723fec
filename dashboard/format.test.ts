import { describe, expect, test, vi } from 'vitest';
import { decimalsOf, formatNumber, metricValue, percent, sinceOf } from './format';

describe('formatNumber: the one way the dashboard writes a number', () => {
  test('groups thousands with a comma, whatever the size', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(6500)).toBe('6,500');
    expect(formatNumber(3590)).toBe('3,590');
    expect(formatNumber(1_234_567)).toBe('1,234,567');
  });

  test('rounds to the decimals asked, and writes exactly that many', () => {
    expect(formatNumber(2.6)).toBe('3');
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(0.1, 3)).toBe('0.100');
  });

  test('a value that rounds to zero is "0", never "-0"', () => {
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(-0.0001, 2)).toBe('0.00');
    expect(formatNumber(-3)).toBe('-3');
  });
});

describe('every figure goes through formatNumber', () => {
  test('metric values: milliseconds grouped, seconds and CLS with their decimals', () => {
    expect(metricValue('LCP', 850.4)).toBe('850 ms');
    expect(metricValue('LCP', 2500)).toBe('2.50 s');
    expect(metricValue('LCP', 12_345_000)).toBe('12,345.00 s');
    expect(metricValue('CLS', 0.1)).toBe('0.100');
    expect(metricValue('INP', null)).toBe('–');
  });

  test('percentages', () => {
    expect(percent(0.425)).toBe('43%');
    expect(percent(1)).toBe('100%');
    expect(percent(0.005, 1)).toBe('0.5%');
  });

  test('a chart tick step gives its decimals', () => {
    expect(decimalsOf(50)).toBe(0);
    expect(decimalsOf(0.2)).toBe(1);
    expect(decimalsOf(0.25)).toBe(2);
    expect(decimalsOf(0.005)).toBe(3);
  });
});

test("a page's ranges end where it was opened: the same since on both sides of a minute's end", () => {
  vi.useFakeTimers();
  try {
    vi.setSystemTime(Date.UTC(2026, 10, 28, 0, 24, 59, 700));
    const first = sinceOf('24h');
    vi.setSystemTime(Date.UTC(2026, 10, 28, 0, 25, 0, 500));
    expect(sinceOf('24h')).toBe(first);
    expect(sinceOf('7d') < first).toBe(true);
  } finally {
    vi.useRealTimers();
  }
});
