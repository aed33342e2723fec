import { expect, test } from 'vitest';
import { batches } from './batches';

test('reports are packed into JSON arrays of at most maxCount', () => {
  const reports = Array.from({ length: 120 }, (_, i) => ({ i }));
  const bodies = batches(reports, 1_000_000, 50);
  expect(bodies.map((body) => (JSON.parse(body) as unknown[]).length)).toEqual([50, 50, 20]);
  expect(bodies.flatMap((body) => JSON.parse(body))).toEqual(reports);
});

test('bodies stay within maxBytes, counting UTF-8 bytes', () => {
  const reports = Array.from({ length: 10 }, () => ({ message: 'é'.repeat(300) }));
  const bodies = batches(reports, 2000, 50);
  for (const body of bodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(2000);
  expect(bodies.flatMap((body) => JSON.parse(body))).toEqual(reports);
});

test('a single report larger than maxBytes still goes, alone', () => {
  expect(batches([{ big: 'x'.repeat(100) }, { small: 1 }], 50, 50)).toEqual([`[{"big":"${'x'.repeat(100)}"}]`, '[{"small":1}]']);
});
