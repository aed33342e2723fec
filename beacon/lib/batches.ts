import { byteLength } from './byteLength';
import { toWireJson } from './toWireJson';

/**
 * Splits reports into JSON array bodies (toWireJson) of at most `maxBytes` bytes (unless one report
 * is larger on its own), in order, so that each send fits the keepalive quota: all in one body when
 * they fit, else each half split the same way. The collector's limit of 50 reports per array needs
 * no check here: a page view queues at most 25 error reports (init.ts).
 *
 * @example
 * batches([{ a: 1 }, { b: 2 }], 16384) // ['[{"a":1},{"b":2}]']
 */
export const batches = (reports: object[], maxBytes: number): string[] => {
  const body = toWireJson(reports);
  const half = reports.length >> 1;
  return half && byteLength(body) > maxBytes
    ? [...batches(reports.slice(0, half), maxBytes), ...batches(reports.slice(half), maxBytes)]
    : [body];
};
