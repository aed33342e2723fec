// JavaScript with JSDoc types, not TypeScript: the benchmarks (bench/sourceMaps.mjs) run it with
// plain node, and the source-map tests (core/stack/compactMap.test.ts) as well.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * One field of a source map's mappings: `value` as a Base64 VLQ (Source Map revision 3).
 *
 * @example
 * vlq(16) // 'gB'
 * @param {number} value
 * @returns {string}
 */
export const vlq = (value) => {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = '';
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    out += BASE64[digit];
  } while (rest > 0);
  return out;
};

/**
 * A generator of numbers in [0, 1) from `seed`: the same map on every run.
 *
 * @example
 * const next = seeded(7);
 * next() // the same number on every run
 * @param {number} seed
 * @returns {() => number}
 */
export const seeded = (seed) => () => ((seed = (Math.imul(seed ^ (seed >>> 15), 2246822507) + 0x6d2b79f5) >>> 0), seed / 2 ** 32);
