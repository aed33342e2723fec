import { decodedMappings, isIgnored, type TraceMap } from '@jridgewell/trace-mapping';
import { isInApp } from './isInApp';

/**
 * A source map's mappings as flat typed arrays, small enough to keep on the HTTP thread and to hand
 * over from the map thread without a copy (their buffers are transferred): what ingest needs to
 * place a frame in the original code for its fingerprint (docs/grouping.md, "Across releases"),
 * without parsing anything itself. 12 bytes a mapping, and one entry per generated line.
 */
export interface PositionIndex {
  /** `lineStarts[l]` is the first mapping of generated line l (0-based); one more entry than lines. */
  lineStarts: Int32Array;
  /** Per mapping, sorted by column within its line: the generated column (0-based), ... */
  columns: Int32Array;
  /** ... the source's index (-1: a mapping to no source), ... */
  sources: Int32Array;
  /** ... and the original line (1-based). */
  lines: Int32Array;
  /** The map's sources, as `originalPositionFor` answers them, without leading `./` and `../` (as an event's `original.file`). */
  sourceNames: string[];
  /** Per source: 1 when it is the site's own code (not under node_modules, not in the map's ignoreList). */
  sourceInApp: Uint8Array;
}

/** A map's mappings past this are not indexed (a report then keeps its minified fingerprint): 24 MB of arrays. */
export const MAX_INDEXED_MAPPINGS = 2_000_000;

/** The bytes an index takes: what the HTTP thread's cache of indexes counts (sourcemaps/ingestIndex.ts). */
export const indexBytes = (index: PositionIndex) =>
  index.lineStarts.byteLength + index.columns.byteLength * 3 + index.sourceInApp.byteLength + index.sourceNames.reduce((sum, name) => sum + 2 * name.length + 16, 0);

/**
 * The index of a parsed, checked map (parseSourceMap.ts), or null when it has more than
 * MAX_INDEXED_MAPPINGS mappings.
 *
 * @example
 * const index = buildPositionIndex(parseSourceMap(text) as TraceMap);
 */
export const buildPositionIndex = (map: TraceMap): PositionIndex | null => {
  const decoded = decodedMappings(map);
  let count = 0;
  for (const line of decoded) count += line.length;
  if (count > MAX_INDEXED_MAPPINGS) return null;
  const lineStarts = new Int32Array(decoded.length + 1);
  const columns = new Int32Array(count);
  const sources = new Int32Array(count);
  const lines = new Int32Array(count);
  let at = 0;
  decoded.forEach((segments, line) => {
    lineStarts[line] = at;
    for (const segment of segments) {
      columns[at] = segment[0];
      sources[at] = segment.length == 1 ? -1 : segment[1]!;
      lines[at] = segment.length == 1 ? 0 : segment[2]! + 1;
      at++;
    }
  });
  lineStarts[decoded.length] = at;
  // The `../` say where the build ran, which another build of the same sources may not share.
  const sourceNames = map.resolvedSources.map((source) => (source ?? '').replace(/^(?:\.{1,2}\/)+/, ''));
  const sourceInApp = Uint8Array.from(map.sources, (source, index) => {
    let ignored = false;
    try {
      ignored = isIgnored(map, map.resolvedSources[index] ?? '');
    } catch {
      // Not listed: not ignored.
    }
    return isInApp('https://in.app/', source ?? '', ignored) ? 1 : 0;
  });
  return { lineStarts, columns, sources, lines, sourceNames, sourceInApp };
};

/**
 * The original source and line of a generated position (1-based line and column, as stacks print
 * them), found as trace-mapping's `originalPositionFor` finds it (the first mapping at the column,
 * else the last before it), or null where the map has none.
 *
 * @example
 * originalLineOf(index, 1, 74); // { source: 'src/format.js', line: 3, inApp: true }
 */
export const originalLineOf = (index: PositionIndex, line: number, column: number) => {
  const generated = line - 1;
  if (!(generated >= 0 && generated < index.lineStarts.length - 1)) return null;
  const needle = Math.max(0, column - 1);
  const start = index.lineStarts[generated]!;
  let low = start;
  let high = index.lineStarts[generated + 1]! - 1;
  // The last mapping at or before the column...
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (index.columns[mid]! <= needle) low = mid + 1;
    else high = mid - 1;
  }
  let found = high;
  if (found < start) return null;
  // ... and of several at that very column, the first.
  while (found > start && index.columns[found - 1] == index.columns[found] && index.columns[found] == needle) found--;
  const source = index.sources[found]!;
  if (source < 0) return null;
  return { source: index.sourceNames[source]!, line: index.lines[found]!, inApp: index.sourceInApp[source] == 1 };
};
