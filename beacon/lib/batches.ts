import { byteLength } from './byteLength';

/**
 * Packs reports into JSON array bodies of at most `maxBytes` bytes (unless one report is larger
 * on its own), so that each send fits the keepalive quota. The collector's limit of 50 reports
 * per array needs no check here: a page view queues at most 25 error reports (init.ts).
 *
 * @example
 * batches([{ a: 1 }, { b: 2 }], 16384) // ['[{"a":1},{"b":2}]']
 */
export const batches = (reports: object[], maxBytes: number): string[] => {
  const bodies: string[] = [];
  let batch = '';
  for (const report of reports) {
    const json = JSON.stringify(report);
    // `batch` + ',' + json + ']' would pass the limit: close the batch first.
    if (batch && byteLength(batch + json) + 2 > maxBytes) {
      bodies.push(batch + ']');
      batch = '';
    }
    batch = (batch ? batch + ',' : '[') + json;
  }
  if (batch) bodies.push(batch + ']');
  return bodies;
};
