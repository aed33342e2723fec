import type { CompactMap } from './compactMap';
import { isInApp } from './isInApp';

/**
 * The original source and line of a generated position (1-based line and column, as stacks print
 * them) in a map's compact form (compactMap.ts), found as trace-mapping's `originalPositionFor`
 * finds it (the first mapping at the column, else the last before it), or null where the map has
 * none: what ingest groups a report by (docs/grouping.md, "Across releases"). The source is named
 * without leading `./` and `../` (as an event's `original.file`: they say where the build ran,
 * which another build of the same sources may not share); `inApp` is false for a source under
 * node_modules or in the map's ignoreList.
 *
 * @example
 * originalLineOf(map, 1, 74); // { source: 'src/format.js', line: 3, inApp: true }
 */
export const originalLineOf = (map: CompactMap, line: number, column: number) => {
  const position = map.trace(line, Math.max(0, column - 1));
  if (!position) return null;
  const source = map.sourceName(position.source);
  return { source: source.replace(/^(?:\.{1,2}\/)+/, ''), line: position.line, inApp: isInApp('https://in.app/', source, map.ignored(position.source)) };
};
