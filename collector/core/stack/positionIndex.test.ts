import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { expect, test } from 'vitest';
import { STACK_APP_BUNDLE } from '../../testing/buildStackApp';
import type { CompactMap } from './compactMap';
import { MAX_MAP_SEGMENTS, parseSourceMap } from './parseSourceMap';
import { originalLineOf } from './positionIndex';

const TEXT = readFileSync(join(STACK_APP_BUNDLE, 'app.min.js.map'), 'utf8');
const MAP = new TraceMap(TEXT);

test('every position of the bundle finds, in the compact form, the source and line trace-mapping finds, without ../', () => {
  const index = parseSourceMap(TEXT) as CompactMap;
  const code = readFileSync(join(STACK_APP_BUNDLE, 'app.min.js'), 'utf8').split('\n');
  let compared = 0;
  for (let line = 1; line <= code.length + 1; line++) {
    for (let column = 1; column <= (code[line - 1]?.length ?? 3) + 2; column++) {
      const expected = originalPositionFor(MAP, { line, column: column - 1 });
      const found = originalLineOf(index, line, column);
      expect(found, `${line}:${column}`).toEqual(
        expected.source === null ? null : { source: expected.source.replace(/^(\.\.\/)+/, ''), line: expected.line, inApp: true },
      );
      compared += found ? 1 : 0;
    }
  }
  expect(compared).toBeGreaterThan(300);
});

test('sources under node_modules or in the ignoreList are not the app; a map with more than MAX_MAP_SEGMENTS does not even parse', () => {
  const index = parseSourceMap(
    JSON.stringify({ version: 3, sources: ['../node_modules/lib/a.js', 'src/b.js', 'src/vendor.js'], names: [], mappings: 'AAAA,CCAA,CCAA', ignoreList: [2] }),
  ) as CompactMap;
  expect([1, 2, 3].map((column) => originalLineOf(index, 1, column))).toEqual([
    { source: 'node_modules/lib/a.js', line: 1, inApp: false },
    { source: 'src/b.js', line: 1, inApp: true },
    { source: 'src/vendor.js', line: 1, inApp: false },
  ]);
  expect(originalLineOf(index, 2, 1)).toBeNull();
  expect(originalLineOf(index, 0, 1)).toBeNull();
  const many = parseSourceMap(JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA,'.repeat(MAX_MAP_SEGMENTS) + 'AAAA' }));
  expect(many).toBe('map_invalid');
});
