import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { describe, expect, test } from 'vitest';
import { seeded, vlq } from '../../testing/mapMaking.mjs';
import type { CompactMap } from './compactMap';
import { CHECKPOINT_EVERY } from './compactMapBuild';
import { parseSourceMap } from './parseSourceMap';

/**
 * A map of `lines` generated lines of `perLine` segments: 1-, 4- and 5-field segments, columns that
 * repeat (several segments at one column), across many checkpoints; `shuffled`: columns out of order.
 */
const mapOf = (lines: number, perLine: number, shuffled = false) => {
  const next = seeded(lines * 31 + perLine);
  const state = [0, 0, 0, 0];
  const mappings: string[] = [];
  for (let line = 0; line < lines; line++) {
    const columns: number[] = [];
    for (let column = 0, index = 0; index < perLine; index++) columns.push((column += Math.floor(next() * 4)));
    if (shuffled) columns.sort(() => next() - 0.5);
    let previous = 0;
    mappings.push(
      columns
        .map((column) => {
          const kind = next();
          let segment = vlq(column - previous);
          previous = column;
          if (kind < 0.1) return segment;
          const fields = [Math.floor(next() * 5), Math.floor(next() * 40), Math.floor(next() * 80), Math.floor(next() * 30)];
          segment += [0, 1, 2].map((field) => vlq(fields[field]! - state[field]!)).join('');
          [state[0], state[1], state[2]] = [fields[0]!, fields[1]!, fields[2]!];
          if (kind < 0.5) return segment;
          segment += vlq(fields[3]! - state[3]!);
          state[3] = fields[3]!;
          return segment;
        })
        .join(','),
    );
  }
  return JSON.stringify({ version: 3, sources: ['a.js', 'b.js', 'c.js', 'd.js', 'e.js'], names: Array.from({ length: 30 }, (_, index) => `n${index}`), mappings: mappings.join(';;') });
};

/** Every column of every line (and around them) looked up in both: the compact form answers as trace-mapping does. */
const compare = (text: string) => {
  const traced = new TraceMap(text);
  const compact = parseSourceMap(text) as CompactMap;
  let compared = 0;
  for (let line = 1; line <= 2 * 6 + 2; line++) {
    for (let column = 0; column < 1_400; column += 1) {
      const expected = originalPositionFor(traced, { line, column });
      const found = compact.trace(line, column);
      const got = found ? { source: compact.sourceName(found.source), line: found.line, column: found.column, name: compact.name(found.name) } : null;
      expect(got, `${line}:${column}`).toEqual(expected.source === null ? null : expected);
      compared += got ? 1 : 0;
    }
  }
  return compared;
};

describe('the compact form of a map (docs/source-maps.md, "The map thread")', () => {
  test(`answers every position as trace-mapping does, across checkpoints (every ${CHECKPOINT_EVERY} segments) and repeated columns`, () => {
    expect(compare(mapOf(6, 400))).toBeGreaterThan(5_000);
  });

  test('a map whose columns are out of order within a line answers as trace-mapping does (it sorts them)', () => {
    expect(compare(mapOf(6, 300, true))).toBeGreaterThan(5_000);
  });

  test('context lines are read alone, as sourceContext.ts cuts and makes them inert', () => {
    const content = ['one', 'two\r', `${'é'.repeat(300)}`, 'four\u202e', 'five', '', 'seven', 'eight', 'nine'].join('\n');
    const map = parseSourceMap(JSON.stringify({ version: 3, sources: ['a.js', 'b.js'], sourcesContent: [content, null], names: [], mappings: 'AAAA' })) as CompactMap;
    expect(map.contexts(0, [1, 4, 9, 10])).toEqual(
      new Map([
        [1, { pre: [], line: 'one', post: ['two', 'é'.repeat(200), 'four\ufffd'] }],
        [4, { pre: ['one', 'two', 'é'.repeat(200)], line: 'four\ufffd', post: ['five', '', 'seven'] }],
        [9, { pre: ['', 'seven', 'eight'], line: 'nine', post: [] }],
        [10, null],
      ]),
    );
    expect(map.contexts(1, [1])).toBeNull();
  });

  test('at the first and last lines, with CRLF line ends; lines past the end, or far past it, have none; several frames in one source', () => {
    const contextsOf = (content: string, lines: number[]) =>
      (parseSourceMap(JSON.stringify({ version: 3, sources: ['a.js'], sourcesContent: [content], names: [], mappings: 'AAAA' })) as CompactMap).contexts(0, lines)!;
    expect(contextsOf('a\r\nb\r\nc', [1]).get(1)).toEqual({ pre: [], line: 'a', post: ['b', 'c'] });
    expect(contextsOf('a\nb\nc\nd\ne', [5]).get(5)).toEqual({ pre: ['b', 'c', 'd'], line: 'e', post: [] });
    expect(contextsOf('a\nb', [3, 0, 1_000_000_000])).toEqual(new Map([[3, null], [0, null], [1_000_000_000, null]]));
    const content = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n');
    const contexts = contextsOf(content, [2, 10, 10, 99]);
    expect(contexts.get(2)).toEqual({ pre: ['line 1'], line: 'line 2', post: ['line 3', 'line 4', 'line 5'] });
    expect(contexts.get(10)).toEqual({ pre: ['line 7', 'line 8', 'line 9'], line: 'line 10', post: ['line 11', 'line 12', 'line 13'] });
    expect(contexts.get(99)).toBeNull();
  });
});
