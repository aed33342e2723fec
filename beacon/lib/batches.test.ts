import { expect, test } from 'vitest';
import { batches } from './batches';

test('reports are packed into JSON arrays, all of them, in order', () => {
  const reports = Array.from({ length: 25 }, (_, i) => ({ i: i + 1 }));
  const bodies = batches(reports, 16384);
  expect(bodies).toHaveLength(1);
  expect(JSON.parse(bodies[0]!)).toEqual(reports);
});

test('bodies stay within maxBytes, counting UTF-8 bytes', () => {
  const reports = Array.from({ length: 10 }, () => ({ message: 'é'.repeat(300) }));
  const bodies = batches(reports, 2000);
  expect(bodies.length).toBeGreaterThan(1);
  for (const body of bodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(2000);
  expect(bodies.flatMap((body) => JSON.parse(body))).toEqual(reports);
});

test('reports that fit in maxBytes, to the byte, go in one body; past it, each half goes on its own', () => {
  // '[{"a":1},{"a":1}]' is 17 bytes.
  expect(batches([{ a: 1 }, { a: 1 }], 17)).toEqual(['[{"a":1},{"a":1}]']);
  expect(batches([{ a: 1 }, { a: 1 }], 16)).toEqual(['[{"a":1}]', '[{"a":1}]']);
  expect(batches([{ a: 1 }, { a: 2 }, { a: 3 }], 17)).toEqual(['[{"a":1}]', '[{"a":2},{"a":3}]']);
});

test('a single report larger than maxBytes still goes, alone', () => {
  expect(batches([{ big: 'x'.repeat(100) }, { small: 1 }], 50)).toEqual([`[{"big":"${'x'.repeat(100)}"}]`, '[{"small":1}]']);
});
