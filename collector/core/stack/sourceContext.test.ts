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
    // The source's text counts the line ends looked for: the scan stops at the source's end (2 lines),
    // not at the line asked for. Counted, not timed: speed is `npm run bench`'s.
    let lookups = 0;
    const content = new (class extends String {
      override indexOf(search: string, position?: number) {
        lookups++;
        return super.indexOf(search, position);
      }
    })('a\nb') as unknown as string;
    expect(sourceContexts(content, [1_000_000_000]).get(1_000_000_000)).toBeNull();
    expect(lookups).toBe(2);
    lookups = 0;
    expect(sourceContexts(content, [2, 1_000_000_000]).get(2)).toEqual({ pre: ['a'], line: 'b', post: [] });
    expect(lookups).toBe(2);
  });
});
