import { isInApp } from './isInApp';
import type { StackFrame } from './parseStack';
import type { ParsedSourceMap } from './parseSourceMap';
import { inertLine, type SourceContext } from './sourceContext';

/** Why a frame has no original position (docs/source-maps.md, "Why a frame is not mapped"). */
export type UnmappedReason = 'no_release' | 'no_map' | 'outside_map' | 'map_invalid';

/**
 * The map for a script's URL, or why there is none: `'no_release'` when the report names no
 * release to choose maps by, `'no_map'` when the release has no map for this URL, `'map_invalid'`
 * when its map does not parse (parseSourceMap.ts; createMapCache.ts keeps parsed maps).
 */
export type MapLookup = (file: string) => ParsedSourceMap | 'no_release' | 'no_map' | 'map_invalid';

/** Where a frame was in the code as written, per its source map. Line and column are 1-based, as in stacks. */
export interface OriginalPosition {
  file: string;
  line: number;
  column: number;
  function: string | null;
  context: SourceContext | null;
}

/** A frame with what its source map says (the `frames` of an event: docs/source-maps.md). */
export interface SymbolicatedFrame extends StackFrame {
  original: OriginalPosition | null;
  unmapped: UnmappedReason | null;
  in_app: boolean;
}

/** A source's or a name's text from a map is anyone's text: shown inert and bounded. */
const MAX_NAME = 200;
const MAX_SOURCE_PATH = 500;

interface Traced {
  map: ParsedSourceMap;
  /** The source's index in the map, and its name. */
  index: number;
  source: string;
  line: number;
  column: number;
  name: string | null;
}

/** `../../src/cart.js` as `src/cart.js`: the `../` of a map's sources say where the build ran, nothing to follow. */
const displayPath = (source: string) => inertLine(source.replace(/^(?:\.{1,2}\/)+/, ''), MAX_SOURCE_PATH);

/** The frame's original position, or why there is none; trace-mapping's checks on a needle never escape. */
const trace = (frame: StackFrame, map: ParsedSourceMap): Traced | 'outside_map' => {
  if (frame.line === null) return 'outside_map';
  try {
    // Stacks count columns from 1, source maps from 0. SpiderMonkey's eval frames have no column: the line's start.
    const position = map.trace(frame.line, Math.max(0, (frame.column ?? 1) - 1));
    if (position === null) return 'outside_map';
    return { map, index: position.source, source: map.sourceName(position.source), line: position.line, column: position.column, name: map.name(position.name) };
  } catch {
    return 'outside_map';
  }
};

/** The map for `file`, asked once per file per call, and a lookup that throws taken as no map. */
const lookupOnce = (lookup: MapLookup) => {
  const seen = new Map<string, ReturnType<MapLookup>>();
  return (file: string) => {
    let found = seen.get(file);
    if (found === undefined) {
      try {
        found = lookup(file);
      } catch {
        found = 'no_map';
      }
      seen.set(file, found);
    }
    return found;
  };
};

/**
 * The source context of each traced position, the lines around it alone read from the map's compact
 * form (compactMap.ts); `null` where the map carries no text for the source, or it cannot be read.
 */
const contextsFor = (traced: ReadonlyArray<Traced | UnmappedReason>) => {
  const linesBySource = new Map<ParsedSourceMap, Map<number, number[]>>();
  for (const position of traced) {
    if (typeof position == 'string') continue;
    const sources = linesBySource.get(position.map) ?? new Map<number, number[]>();
    linesBySource.set(position.map, sources);
    sources.set(position.index, [...(sources.get(position.index) ?? []), position.line]);
  }
  const contexts = new Map<ParsedSourceMap, Map<number, Map<number, SourceContext | null>>>();
  for (const [map, sources] of linesBySource) {
    const bySource = new Map<number, Map<number, SourceContext | null>>();
    for (const [source, lines] of sources) {
      // A source the map lists without content has no context.
      let found: Map<number, SourceContext | null> | null = null;
      try {
        found = map.contexts(source, lines);
      } catch {
        // Unreadable (a file gone): no context.
      }
      if (found !== null) bySource.set(source, found);
    }
    contexts.set(map, bySource);
  }
  return (position: Traced) => contexts.get(position.map)?.get(position.index)?.get(position.line) ?? null;
};

/**
 * Each frame with its original file, line, column, function and source context from its script's
 * source map, or the reason it has none, and whether it is the site's own code (isInApp.ts).
 *
 * The original function's name is the name the caller's call site maps to: a minified frame is
 * `t`, and the caller's code calling it is `formatTotal(…)` in the source, while the frame's own
 * position maps to a token inside the function (docs/source-maps.md, "Function names"). The
 * outermost frame, and a frame whose caller maps to no name, have none.
 *
 * Never throws, whatever the maps hold: an unreadable position is `outside_map`.
 *
 * @example
 * const maps = createMapCache({ maxChars: 64 * 1024 * 1024 });
 * const frames = symbolicate(parseStack(report.stack), (file) =>
 *   report.release ? maps.get(`${report.release} ${file}`, () => mapTextFor(report.release, file)) : 'no_release');
 * frames[0].original; // { file: 'src/format.js', line: 3, column: 11, function: 'formatTotal', context: {…} }
 */
export const symbolicate = (frames: readonly StackFrame[], lookup: MapLookup): SymbolicatedFrame[] => {
  const mapFor = lookupOnce(lookup);
  const traced = frames.map((frame): Traced | UnmappedReason => {
    if (!frame.file) return 'no_map';
    const map = mapFor(frame.file);
    return typeof map == 'string' ? map : trace(frame, map);
  });
  const contextOf = contextsFor(traced);
  return frames.map((frame, index) => {
    const position = traced[index]!;
    const { raw, file, line, column } = frame;
    const base = { raw, file, line, column, function: frame.function };
    if (typeof position == 'string') return { ...base, original: null, unmapped: position, in_app: isInApp(file) };
    const caller = traced[index + 1];
    const name = caller !== undefined && typeof caller != 'string' && caller.name ? inertLine(caller.name, MAX_NAME) : null;
    let ignored = false;
    try {
      ignored = position.map.ignored(position.index);
    } catch {
      // Unreadable: not ignored.
    }
    const original: OriginalPosition = {
      file: displayPath(position.source),
      line: position.line,
      column: position.column + 1,
      function: name,
      context: contextOf(position),
    };
    return { ...base, original, unmapped: null, in_app: isInApp(file, position.source, ignored) };
  });
};
