import { expect, test } from 'vitest';
import { change, comparison } from './compare';

test('a change on the previous range: signed whole percents, "<1%" for a small one, "new" from nothing', () => {
  expect(change(58, 52)).toEqual({ text: '+12%', direction: 'up' });
  expect(change(46, 50)).toEqual({ text: '−8%', direction: 'down' });
  expect(change(1001, 1000)).toEqual({ text: '+<1%', direction: 'up' });
  expect(change(0, 7)).toEqual({ text: '−100%', direction: 'down' });
  expect(change(3, 0)).toEqual({ text: 'new', direction: 'up' });
  expect(change(4, 4)).toEqual({ text: 'no change', direction: 'same' });
  expect(change(25_000, 1_000)).toEqual({ text: '+2,400%', direction: 'up' });
});

test('the sentence beside a total names the previous range and its figure', () => {
  expect(comparison(58, 52, '24h')).toBe('+12% on the previous 24 hours (52)');
  expect(comparison(2, 6_500, '7d')).toBe('−100% on the previous 7 days (6,500)');
  expect(comparison(3, 0, '30d')).toBe('none in the previous 30 days');
  expect(comparison(0, 0, '24h')).toBe('none in the previous 24 hours either');
  expect(comparison(9, 9, '7d')).toBe('as many as in the previous 7 days');
});
