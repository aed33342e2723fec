import { describe, expect, test } from 'vitest';
import { inertLine, sourceContext, sourceContexts } from './sourceContext';

describe('sourceContext', () => {
  test('at the first and last lines, with CRLF line ends; a line past the end has none', () => {
    expect(sourceContext('a\r\nb\r\nc', 1)).toEqual({ pre: [], line: 'a', post: ['b', 'c'] });
    expect(sourceContext('a\nb\nc\nd\ne', 5)).toEqual({ pre: ['b', 'c', 'd'], line: 'e', post: [] });
    expect(sourceContext('a\nb', 3)).toBeNull();
    expect(sourceContext('a', 0)).toBeNull();
  });
  test('a cut never splits a surrogate pair', () => {
    expect(inertLine('ab😀', 3)).toBe('ab');
  });
});

describe('sourceContexts', () => {
  test('the lines of several frames in one source, in one pass; a line past the end has none', () => {
    const content = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n');
    const contexts = sourceContexts(content, [2, 10, 10, 99]);
    expect(contexts.get(2)).toEqual({ pre: ['line 1'], line: 'line 2', post: ['line 3', 'line 4', 'line 5'] });
    expect(contexts.get(10)).toEqual({ pre: ['line 7', 'line 8', 'line 9'], line: 'line 10', post: ['line 11', 'line 12', 'line 13'] });
    expect(contexts.get(99)).toBeNull();
  });
  test('a line a map claims far past the source ends the scan at the source\'s end', () => {
    const started = performance.now();
    expect(sourceContexts('a\nb', [1_000_000_000]).get(1_000_000_000)).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
  });
});
