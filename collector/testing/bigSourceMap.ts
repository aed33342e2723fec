/**
 * A valid source map of `segments` mappings on one line, for the tests of the map thread: decoding
 * it takes a while (about 1.8 s a million mappings, docs/source-maps.md "Limits").
 *
 * @example
 * await upload(bigSourceMap(1_000_000)); // 5 MB of text
 */
export const bigSourceMap = (segments: number) =>
  JSON.stringify({ version: 3, sources: ['src/a.js'], names: [], mappings: 'AAAA,'.repeat(segments - 1) + 'AAAA' });
