import { describe, expect, test } from 'vitest';
import { inertLine } from './sourceContext';

// A frame's context lines are read from a map's compact form: compactMap.test.ts.
describe('inertLine', () => {
  test('a cut never splits a surrogate pair', () => {
    expect(inertLine('ab😀', 3)).toBe('ab');
  });
});
