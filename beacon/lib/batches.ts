import { byteLength } from './byteLength';

/**
 * Packs reports into JSON array bodies of at most `maxCount` reports and (unless one report is
 * larger on its own) `maxBytes` bytes, so that each send fits the keepalive quota.
 *
 * @example
 * batches([{ a: 1 }, { b: 2 }], 16384, 50) // ['[{"a":1},{"b":2}]']
 */
export const batches = (reports: object[], maxBytes: number, maxCount: number): string[] => {
  const bodies: string[] = [];
  let batch: string[] = [];
  let size = 2;
  for (const report of reports) {
    const json = JSON.stringify(report);
    const bytes = byteLength(json) + 1;
    if (batch.length && (batch.length >= maxCount || size + bytes > maxBytes)) {
      bodies.push(`[${batch}]`);
      batch = [];
      size = 2;
    }
    batch.push(json);
    size += bytes;
  }
  if (batch.length) bodies.push(`[${batch}]`);
  return bodies;
};
